import type { Tunnel, TunnelDomain, TunnelForm, TunnelStatus } from '@fleetlink/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { quietRefresh } from '../../../app/api/quiet-refresh';
import { useApi } from '../../../app/api/useApi';
import { DEVICE_REFRESH_MS } from '../device-api';

const tunnelsUrl = (deviceId: string) => `/api/device/${encodeURIComponent(deviceId)}/tunnel`;
const tunnelUrl = (deviceId: string, id: string) => `${tunnelsUrl(deviceId)}/${encodeURIComponent(id)}`;

export const tunnelKeys = {
  list: (deviceId: string) => ['tunnels', deviceId] as const,
  domains: (deviceId: string) => ['tunnels', deviceId, 'domains'] as const,
};

/** The device's tunnels with their status (SPEC §7), refreshed like the device itself. */
export function useTunnels(deviceId: string) {
  const api = useApi();
  return useQuery({
    queryKey: tunnelKeys.list(deviceId),
    queryFn: (ctx) => api.request<Tunnel[]>(tunnelsUrl(deviceId), quietRefresh(ctx)),
    refetchInterval: DEVICE_REFRESH_MS,
  });
}

/** The Domain choices of the form: the proxy's own, then the organization's active custom domains. */
export function useTunnelDomains(deviceId: string) {
  const api = useApi();
  return useQuery({
    queryKey: tunnelKeys.domains(deviceId),
    queryFn: ({ signal }) => api.get<TunnelDomain[]>(`/api/device/${encodeURIComponent(deviceId)}/tunnel-domains`, signal),
  });
}

export function useSaveTunnel(deviceId: string, tunnelId?: string) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: TunnelForm) =>
      tunnelId ? api.put<Tunnel>(tunnelUrl(deviceId, tunnelId), form) : api.post<Tunnel>(tunnelsUrl(deviceId), form),
    onSuccess: () => client.invalidateQueries({ queryKey: tunnelKeys.list(deviceId) }),
  });
}

export function useDeleteTunnel(deviceId: string) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (tunnelId: string) => api.delete(tunnelUrl(deviceId, tunnelId)),
    onSuccess: () => client.invalidateQueries({ queryKey: tunnelKeys.list(deviceId) }),
  });
}

/** Connect or Disconnect; the status reloads afterwards whichever way it went (SPEC §4). */
export function useTunnelSwitch(deviceId: string) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ tunnelId, on }: { tunnelId: string; on: boolean }) => api.post<TunnelStatus>(`${tunnelUrl(deviceId, tunnelId)}/${on ? 'start' : 'stop'}`),
    onSettled: () => client.invalidateQueries({ queryKey: tunnelKeys.list(deviceId) }),
  });
}
