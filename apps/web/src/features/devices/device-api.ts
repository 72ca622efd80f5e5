import type {
  Device,
  DeviceForm,
  DeviceOrganizationOptions,
  DeviceReindexResult,
  DeviceSearchResult,
  DeviceStatusFilter,
  DeviceTags,
  InstallationKeyReset,
} from '@fleetlink/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../../app/api/api-client';
import { ApiRequestError } from '../../app/api/api-error';
import { quietRefresh } from '../../app/api/quiet-refresh';
import { useApi } from '../../app/api/useApi';
import { deviceUrl, searchUrl } from './device-urls';

/** SPEC §4: the device cache refreshes every 60 seconds. */
export const DEVICE_REFRESH_MS = 60_000;

export const deviceKeys = {
  all: ['devices'] as const,
  search: (params: DeviceSearchParams) => ['devices', 'search', params] as const,
  detail: (id: string) => ['devices', 'detail', id] as const,
  tags: ['devices', 'tags'] as const,
  organizations: ['devices', 'organizations'] as const,
};

export interface DeviceSearchParams {
  search?: string;
  status?: DeviceStatusFilter;
  page?: number;
  size?: number;
}

/** A search's question: by the page (useDeviceSearch), and asked ahead by the console as it starts. */
export const deviceSearchQuery = (api: ApiClient, params: DeviceSearchParams) =>
  queryOptions({
    queryKey: deviceKeys.search(params),
    queryFn: (ctx) => api.request<DeviceSearchResult>(searchUrl(params), quietRefresh(ctx)),
  });

export function useDeviceSearch(params: DeviceSearchParams, options: { enabled?: boolean } = {}) {
  const api = useApi();
  return useQuery({
    ...deviceSearchQuery(api, params),
    refetchInterval: DEVICE_REFRESH_MS,
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

/** A device answer of 404: deleted (or moved out of the asker's reach) since it was shown. */
export const isDeviceGone = (err: unknown) => err instanceof ApiRequestError && err.status === 404;

/** One device's question: by its pages (useDevice), and asked ahead by the console as it starts. */
export const deviceQuery = (api: ApiClient, id: string) =>
  queryOptions({
    queryKey: deviceKeys.detail(id),
    queryFn: (ctx) => api.request<Device>(deviceUrl(id), { ...quietRefresh(ctx), handled: isDeviceGone }),
  });

/**
 * One device, refreshed every 60 s (SPEC §4). Issue 59: a refresh that fails is the page's to tell
 * ("Could not refresh: …", the last data kept), not an alert each minute; a device found gone stops
 * being asked for, and its page says so.
 */
export function useDevice(id: string | undefined) {
  const api = useApi();
  return useQuery({
    ...deviceQuery(api, id ?? ''),
    // Gone: asked for no more, by the timer or by the page mounting again (a session renewal remounts it).
    enabled: (query) => !!id && !isDeviceGone(query.state.error),
    refetchInterval: DEVICE_REFRESH_MS,
  });
}

export function useDeviceTags() {
  const api = useApi();
  return useQuery({ queryKey: deviceKeys.tags, queryFn: ({ signal }) => api.get<DeviceTags>('/api/tags', signal) });
}

export function useDeviceOrganizations() {
  const api = useApi();
  return useQuery({
    queryKey: deviceKeys.organizations,
    queryFn: ({ signal }) => api.get<DeviceOrganizationOptions>('/api/device-organizations', signal),
  });
}

export function useSaveDevice(id?: string) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: DeviceForm) =>
      id ? api.put<Device>(deviceUrl(id), form) : api.post<Device>('/api/device', form),
    onSuccess: (device) => {
      client.setQueryData(deviceKeys.detail(device.id), device);
      void client.invalidateQueries({ queryKey: deviceKeys.all });
    },
  });
}

export function useDeleteDevice(id: string) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(deviceUrl(id)),
    onSuccess: () => {
      client.removeQueries({ queryKey: deviceKeys.detail(id) });
      void client.invalidateQueries({ queryKey: deviceKeys.all });
    },
  });
}

export function useReindexDevices() {
  const api = useApi();
  return useMutation({ mutationFn: () => api.get<DeviceReindexResult>('/api/devices-search-reindex') });
}

/** A new installation key; the old one and the agent's account stop working, and the agent is disconnected. */
export function useResetInstallationKey(id: string) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<InstallationKeyReset>(`${deviceUrl(id)}/installation-key`),
    onSuccess: () => client.invalidateQueries({ queryKey: deviceKeys.detail(id) }),
  });
}
