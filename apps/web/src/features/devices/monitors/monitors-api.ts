import type { Monitor, MonitorForm } from '@fleetlink/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/api/useApi';
import { deviceKeys } from '../device-api';

const monitorsUrl = (deviceId: string) => `/api/device/${encodeURIComponent(deviceId)}/monitor`;
const monitorUrl = (deviceId: string, id: string) => `${monitorsUrl(deviceId)}/${encodeURIComponent(id)}`;

/**
 * The monitors' changes (SPEC §7). Monitors are read with their device (GET /api/device/{id}), so
 * each change reloads it.
 */
export function useSaveMonitor(deviceId: string, monitorId?: string) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: MonitorForm) =>
      monitorId ? api.put<Monitor>(monitorUrl(deviceId, monitorId), form) : api.post<Monitor>(monitorsUrl(deviceId), form),
    onSuccess: () => client.invalidateQueries({ queryKey: deviceKeys.detail(deviceId) }),
  });
}

export function useDeleteMonitor(deviceId: string) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (monitorId: string) => api.delete(monitorUrl(deviceId, monitorId)),
    onSuccess: () => client.invalidateQueries({ queryKey: deviceKeys.detail(deviceId) }),
  });
}
