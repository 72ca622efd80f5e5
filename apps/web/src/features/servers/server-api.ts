import {
  allOrganizationsSchema,
  deviceServersSchema,
  serverListSchema,
  serverSchema,
  serversReloadResultSchema,
  type ServerFormInput,
} from '@fleetlink/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../app/api/useApi';
import { serverKeys } from './server-keys';

export { serverKeys };

export function useServers() {
  const api = useApi();
  return useQuery({ queryKey: serverKeys.all, queryFn: ({ signal }) => api.get('/api/servers', serverListSchema, signal) });
}

export function useServer(id: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: serverKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api.get(`/api/server/${encodeURIComponent(id!)}`, serverSchema, signal),
    enabled: !!id,
    retry: false,
  });
}

/** Organizations a private server may belong to (GET /api/all-organizations, realm ADMIN). */
export function useAllOrganizations() {
  const api = useApi();
  return useQuery({
    queryKey: ['all-organizations'],
    queryFn: ({ signal }) => api.get('/api/all-organizations', allOrganizationsSchema, signal),
    retry: false,
  });
}

export function useSaveServer(id: string | undefined) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: ServerFormInput) =>
      id ? api.put(`/api/server/${encodeURIComponent(id)}`, form, serverSchema) : api.post('/api/server', form, serverSchema),
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
    mutationFn: () => api.get('/api/servers-reload', serversReloadResultSchema),
    onSuccess: () => client.invalidateQueries({ queryKey: serverKeys.all }),
  });
}

/** The device Servers tab (realm ADMIN). */
export function useDeviceServers(deviceId: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: serverKeys.ofDevice(deviceId ?? ''),
    queryFn: ({ signal }) => api.get(`/api/device/${encodeURIComponent(deviceId!)}/servers`, deviceServersSchema, signal),
    enabled: !!deviceId,
  });
}

export function useMigrateDevice(deviceId: string) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ from, to }: { from: string; to: string }) =>
      api.post(
        `/api/server-migrate/${encodeURIComponent(deviceId)}/${encodeURIComponent(from)}/${encodeURIComponent(to)}`,
        undefined,
        deviceServersSchema,
      ),
    onSuccess: async (servers) => {
      client.setQueryData(serverKeys.ofDevice(deviceId), servers);
      await Promise.all([client.invalidateQueries({ queryKey: serverKeys.all }), client.invalidateQueries({ queryKey: ['device', deviceId] })]);
    },
  });
}
