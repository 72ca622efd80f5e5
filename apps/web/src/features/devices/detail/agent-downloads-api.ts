import { type AgentDownload, agentDownloadRoutes, type AgentDownloads } from '@fleetlink/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useApi } from '../../../app/api/useApi';
import { saveFile } from '../../../app/api/save-file';

const route = (path: string, id: string, kind = '') => path.replace(':id', encodeURIComponent(id)).replace(':kind', kind);

/** The Install page's downloads: built by the console from the device's release (issue 32). */
export function useAgentDownloads(deviceId: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['devices', deviceId, 'agent-downloads'],
    queryFn: ({ signal }) => api.get<AgentDownloads>(route(agentDownloadRoutes.list.path, deviceId), signal),
  });
}

/** Fetches one download with the session's token and saves it; a failure is only logged (SPEC §8). */
export function useSaveAgentDownload(deviceId: string) {
  const api = useApi();
  return useMutation({
    mutationFn: async (d: AgentDownload) => saveFile(await api.blob(route(agentDownloadRoutes.file.path, deviceId, d.kind), { quiet: true }), d.name),
    onError: (err, d) => console.error(`The download of ${d.name} failed:`, err),
  });
}
