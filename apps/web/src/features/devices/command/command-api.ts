import { commandOutputSchema, type CommandForm } from '@fleetlink/contract';
import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../../app/api/useApi';

/** POST /api/device/{id}/command: resolves with what the command printed once the device answered. */
export function useRunCommand(deviceId: string) {
  const api = useApi();
  return useMutation({
    mutationFn: (form: CommandForm) => api.post(`/api/device/${encodeURIComponent(deviceId)}/command`, form, commandOutputSchema),
  });
}
