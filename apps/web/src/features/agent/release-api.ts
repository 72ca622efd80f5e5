import { BUNDLE_UPLOAD_FIELD, bundleListSchema, bundleSchema, releaseListSchema, releaseSchema, type ReleaseBranch, type ReleaseForm } from '@fleetlink/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '../../app/api/useApi';
import { useTrackedUpload } from '../../app/api/useTrackedUpload';

export const releaseKeys = {
  bundles: ['bundles'] as const,
  bundleNames: ['bundles', 'names'] as const,
  bundleVersions: (name: string) => ['bundles', 'versions', name] as const,
  releases: ['releases'] as const,
};

export function useBundles() {
  const api = useApi();
  return useQuery({ queryKey: releaseKeys.bundles, queryFn: ({ signal }) => api.get('/api/bundles', bundleListSchema, signal) });
}

export function useBundleNames() {
  const api = useApi();
  return useQuery({ queryKey: releaseKeys.bundleNames, queryFn: ({ signal }) => api.get('/api/bundle-names', z.array(z.string()), signal) });
}

/** The versions of one bundle, newest first; nothing is asked while no name is chosen. */
export function useBundleVersions(name: string) {
  const api = useApi();
  return useQuery({
    queryKey: releaseKeys.bundleVersions(name),
    queryFn: ({ signal }) => api.get(`/api/bundle-versions/${encodeURIComponent(name)}`, z.array(z.string()), signal),
    enabled: name !== '',
  });
}

export function useReleases() {
  const api = useApi();
  return useQuery({ queryKey: releaseKeys.releases, queryFn: ({ signal }) => api.get('/api/releases', releaseListSchema, signal) });
}

export function useCreateRelease() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: ReleaseForm) => api.post('/api/release', form, releaseSchema),
    onSuccess: () => client.invalidateQueries({ queryKey: releaseKeys.releases }),
  });
}

export function useDeleteRelease() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (r: { branch: ReleaseBranch; version: string }) => api.delete(`/api/release/${r.branch}/${encodeURIComponent(r.version)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: releaseKeys.releases }),
  });
}

export function useDeleteBundle() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (b: { name: string; version: string }) => api.delete(`/api/bundle/${encodeURIComponent(b.name)}/${encodeURIComponent(b.version)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: releaseKeys.bundles }),
  });
}

/**
 * 'Upload bundle' (issue 31): the archive goes up with its progress and a Cancel; on success the
 * bundle lists are read again. A refusal (not an archive, no manifest, a version taken…) is the
 * alert toast with the console's message.
 */
export function useUploadBundle() {
  const api = useApi();
  const client = useQueryClient();
  const { state, track, cancel } = useTrackedUpload();
  /** Answers whether the bundle was taken. */
  const start = (file: File): Promise<boolean> => {
    const form = new FormData();
    form.append(BUNDLE_UPLOAD_FIELD, file);
    return track(file, async (o) => {
      await api.upload('/api/bundle', form, { schema: bundleSchema, ...o });
      await client.invalidateQueries({ queryKey: releaseKeys.bundles });
    });
  };
  return { state, start, cancel };
}
