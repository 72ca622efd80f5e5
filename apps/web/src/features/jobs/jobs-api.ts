import {
  type Job,
  type JobForm,
  type JobList,
  type JobPreview,
  jobPreviewSchema,
  type JobResultOutput,
  type JobResultsPage,
  type JobResultState,
} from '@fleetlink/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../app/api/useApi';
import { saveFile } from '../../app/api/save-file';
import type { ApiRequestError } from '../../app/api/api-error';
import { jobKeys } from './job-keys';

export { jobKeys };

const path = (id: string) => `/api/jobs/${encodeURIComponent(id)}`;
const runPath = (id: string, runId: string) => `${path(id)}/runs/${encodeURIComponent(runId)}`;

export const JOB_RESULTS_PAGE_SIZE = 50;

export function useJobs() {
  const api = useApi();
  return useQuery({ queryKey: jobKeys.list(), queryFn: ({ signal }) => api.get<JobList>('/api/jobs', signal) });
}

export function useJob(id: string) {
  const api = useApi();
  return useQuery({ queryKey: jobKeys.detail(id), queryFn: ({ signal }) => api.get<Job>(path(id), signal) });
}

export function useJobResults(id: string, runId: string | undefined, state: JobResultState | null, after: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: jobKeys.results(id, runId ?? '', state, after),
    enabled: !!runId,
    queryFn: ({ signal }) => {
      const q = new URLSearchParams({ size: String(JOB_RESULTS_PAGE_SIZE), ...(state ? { state } : {}), ...(after ? { after } : {}) });
      return api.get<JobResultsPage>(`${runPath(id, runId!)}/results?${q}`, signal);
    },
    placeholderData: keepPreviousData,
  });
}

export function useJobOutput(id: string, runId: string, deviceId: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: jobKeys.output(id, runId, deviceId ?? ''),
    enabled: !!deviceId,
    queryFn: ({ signal }) => api.get<JobResultOutput>(`${runPath(id, runId)}/results/${encodeURIComponent(deviceId!)}`, signal),
  });
}

/** Checks the form at the console and counts the devices it reaches: field errors come back on the form, not as a toast. */
export function useJobPreview() {
  const api = useApi();
  return useMutation<Awaited<ReturnType<typeof jobPreviewSchema.parse>>, ApiRequestError, JobForm>({
    mutationFn: (form) => api.request<JobPreview>('/api/jobs/preview', { method: 'POST', body: form, handled: (e) => e.status === 400 && !!e.fields }),
  });
}

export function useCreateJob() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: JobForm) => api.request<Job>('/api/jobs', { method: 'POST', body: form, handled: (e) => e.status === 400 && !!e.fields }),
    onSuccess: () => void client.invalidateQueries({ queryKey: jobKeys.list() }),
  });
}

export function useCancelJob(id: string) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<Job>(`${path(id)}/cancel`),
    onSuccess: (job) => {
      client.setQueryData(jobKeys.detail(id), job);
      void client.invalidateQueries({ queryKey: jobKeys.all });
    },
  });
}

export function useRerunFailed(id: string) {
  const api = useApi();
  return useMutation({ mutationFn: (runId: string) => api.post<Job>(`${runPath(id, runId)}/rerun-failed`) });
}

/** The run's results as CSV, saved by the page (the export needs the bearer token; a navigation carries none). */
export function useExportJobResults(id: string) {
  const api = useApi();
  return useMutation({
    mutationFn: async ({ runId, number }: { runId: string; number: number }) => {
      saveFile(await api.blob(`${runPath(id, runId)}/export`), `job-${id.slice(0, 8)}-run-${number}.csv`);
    },
  });
}
