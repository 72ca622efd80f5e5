import {
  type Bundle,
  BUNDLE_UPLOAD_FIELD,
  type BundleList,
  type Release,
  type ReleaseBranch,
  type ReleaseForm,
  type ReleaseList,
  type RolloutAction,
  type RolloutDevices,
  type RolloutForm,
} from '@fleetlink/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../app/api/useApi';
import { useTrackedUpload } from '../../app/api/useTrackedUpload';
import { releaseKeys } from './release-keys';

export { releaseKeys };

export function useBundles() {
  const api = useApi();
  return useQuery({ queryKey: releaseKeys.bundles, queryFn: ({ signal }) => api.get<BundleList>('/api/bundles', signal) });
}

export function useBundleNames() {
  const api = useApi();
  return useQuery({ queryKey: releaseKeys.bundleNames, queryFn: ({ signal }) => api.get<string[]>('/api/bundle-names', signal) });
}

/** The versions of one bundle, newest first; nothing is asked while no name is chosen. */
export function useBundleVersions(name: string) {
  const api = useApi();
  return useQuery({
    queryKey: releaseKeys.bundleVersions(name),
    queryFn: ({ signal }) => api.get<string[]>(`/api/bundle-versions/${encodeURIComponent(name)}`, signal),
    enabled: name !== '',
  });
}

export function useReleases() {
  const api = useApi();
  return useQuery({ queryKey: releaseKeys.releases, queryFn: ({ signal }) => api.get<ReleaseList>('/api/releases', signal) });
}

export function useCreateRelease() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: ReleaseForm) => api.post<Release>('/api/release', form),
    onSuccess: () => client.invalidateQueries({ queryKey: releaseKeys.releases }),
  });
}

export function useDeleteRelease() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (r: { branch: ReleaseBranch; version: string }) => api.delete(releasePath(r)),
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
      await api.upload<Bundle>('/api/bundle', form, o);
      await client.invalidateQueries({ queryKey: releaseKeys.bundles });
    });
  };
  return { state, start, cancel };
}

const releasePath = (r: { branch: ReleaseBranch; version: string }) => `/api/release/${r.branch}/${encodeURIComponent(r.version)}`;

/** Staged rollouts (issue 65): set one on an existing release (waves, or all at once). */
export function useSetRollout() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ release, rollout }: { release: { branch: ReleaseBranch; version: string }; rollout: RolloutForm }) => api.put(`${releasePath(release)}/rollout`, rollout),
    onSuccess: () => client.invalidateQueries({ queryKey: releaseKeys.releases }),
  });
}

/** Pause, Resume, Abort, Roll back. */
export function useRolloutAction() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ release, action }: { release: { branch: ReleaseBranch; version: string }; action: RolloutAction }) => api.post(`${releasePath(release)}/rollout/${action}`),
    onSuccess: () => client.invalidateQueries({ queryKey: releaseKeys.releases }),
  });
}

/** One wave's devices, read when its list is opened (and again with the releases, live). */
export function useRolloutWave(release: { branch: ReleaseBranch; version: string }, wave: number, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: [...releaseKeys.releases, 'wave', release.branch, release.version, wave],
    queryFn: ({ signal }) => api.get<RolloutDevices>(`${releasePath(release)}/rollout/wave/${wave}`, signal),
    enabled,
  });
}
