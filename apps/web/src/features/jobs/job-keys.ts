import type { JobResultState } from '@fleetlink/contract';

/**
 * Query keys of jobs: a live 'jobs' event marks them all stale (only the person's own jobs are told).
 * Apart from jobs-api: the live updates (on every page) need them, not the jobs code.
 */
export const jobKeys = {
  all: ['jobs'] as const,
  list: () => ['jobs', 'list'] as const,
  detail: (id: string) => ['jobs', id] as const,
  results: (id: string, runId: string, state: JobResultState | null, after: string | null) => ['jobs', id, 'results', runId, state, after] as const,
  output: (id: string, runId: string, deviceId: string) => ['jobs', id, 'output', runId, deviceId] as const,
};
