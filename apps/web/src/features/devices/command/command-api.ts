import { commandAnswerSchema, type CommandForm } from '@fleetlink/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/api/useApi';
import { deviceKeys } from '../device-api';

/** POST /api/device/{id}/command: resolves with what the command printed (for `file`, the listing) once the device answered. */
export function useRunCommand(deviceId: string) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: CommandForm) => api.post(`/api/device/${encodeURIComponent(deviceId)}/command`, form, commandAnswerSchema),
    // An answer (or none) says more about the device than the last minute's refresh: an agent that
    // went offline, or restarted, shows so in the header now.
    onSettled: () => client.invalidateQueries({ queryKey: deviceKeys.detail(deviceId) }),
  });
}
