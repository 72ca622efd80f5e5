import type { AllOrganizations, DeviceServers, Server, ServerFormInput, ServerList, ServersReloadResult } from '@fleetlink/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../app/api/useApi';
import { serverKeys } from './server-keys';

export { serverKeys };

export function useServers() {
  const api = useApi();
  return useQuery({ queryKey: serverKeys.all, queryFn: ({ signal }) => api.get<ServerList>('/api/servers', signal) });
}

export function useServer(id: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: serverKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api.get<Server>(`/api/server/${encodeURIComponent(id!)}`, signal),
    enabled: !!id,
    retry: false,
  });
}

/** Organizations a private server may belong to (GET /api/all-organizations, realm ADMIN). */
export function useAllOrganizations() {
  const api = useApi();
  return useQuery({
    queryKey: ['all-organizations'],
    queryFn: ({ signal }) => api.get<AllOrganizations>('/api/all-organizations', signal),
    retry: false,
  });
}

export function useSaveServer(id: string | undefined) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: ServerFormInput) =>
      id ? api.put<Server>(`/api/server/${encodeURIComponent(id)}`, form) : api.post<Server>('/api/server', form),
    onSuccess: async (saved) => {
      client.setQueryData(serverKeys.detail(saved.id), saved);
      await client.invalidateQueries({ queryKey: serverKeys.all });
    },
  });
}

export function useDeleteServer(id: string) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(`/api/server/${encodeURIComponent(id)}`),
    onSuccess: async () => {
      client.removeQueries({ queryKey: serverKeys.detail(id) });
      await client.invalidateQueries({ queryKey: serverKeys.all });
    },
  });
}

export function useReloadServers() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.get<ServersReloadResult>('/api/servers-reload'),
    onSuccess: () => client.invalidateQueries({ queryKey: serverKeys.all }),
  });
}

/** The device Servers tab (realm ADMIN). */
export function useDeviceServers(deviceId: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: serverKeys.ofDevice(deviceId ?? ''),
    queryFn: ({ signal }) => api.get<DeviceServers>(`/api/device/${encodeURIComponent(deviceId!)}/servers`, signal),
    enabled: !!deviceId,
  });
}

export function useMigrateDevice(deviceId: string) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ from, to }: { from: string; to: string }) =>
      api.post<DeviceServers>(`/api/server-migrate/${encodeURIComponent(deviceId)}/${encodeURIComponent(from)}/${encodeURIComponent(to)}`),
    onSuccess: async (servers) => {
      client.setQueryData(serverKeys.ofDevice(deviceId), servers);
      await Promise.all([client.invalidateQueries({ queryKey: serverKeys.all }), client.invalidateQueries({ queryKey: ['device', deviceId] })]);
    },
  });
}
