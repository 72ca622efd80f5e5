import { AuditKind, type AuditPage, type CommandAnswer, type CommandForm } from '@fleetlink/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/api/useApi';
import { deviceKeys } from '../device-api';

/** POST /api/device/{id}/command: resolves with what the command printed (for `file`, the listing) once the device answered. */
export function useRunCommand(deviceId: string) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: CommandForm) => api.post<CommandAnswer>(`/api/device/${encodeURIComponent(deviceId)}/command`, form),
    // An answer (or none) says more about the device than the last minute's refresh: an agent that
    // went offline, or restarted, shows so in the header now.
    onSettled: () => {
      void client.invalidateQueries({ queryKey: deviceKeys.detail(deviceId) });
      void client.invalidateQueries({ queryKey: commandHistoryKey(deviceId) });
    },
  });
}

const commandHistoryKey = (deviceId: string) => [...deviceKeys.detail(deviceId), 'commands'] as const;

/** The device's command entries of the audit trail, newest first (the Command page is realm ADMIN's, as the trail is). */
export function useCommandHistory(deviceId: string) {
  const api = useApi();
  return useQuery({
    queryKey: commandHistoryKey(deviceId),
    queryFn: ({ signal }) =>
      api.request<AuditPage>(`/api/audit?${new URLSearchParams({ kind: AuditKind.Command, device: deviceId, size: '50' })}`, { signal, quiet: true }),
  });
}
