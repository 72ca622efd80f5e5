import { jobResultsPageSchema, jobSchema, type Job, type JobFormInput, type JobResult, type JobResultState } from '@fleetlink/contract';
import { expect } from 'vitest';
import type { TestConsole } from '../../testing/test-console.js';
import { waitFor } from '../broker/broker.test-support.js';

/** The jobs API as a test calls it, with one admin's token. */
export function jobsClient(tc: TestConsole, token: string) {
  const call = (path: string, init: { method?: string; json?: unknown } = {}) => tc.api(path, { ...init, token });
  const client = {
    call,
    async create(form: JobFormInput): Promise<Job> {
      const res = await call('/api/jobs', { method: 'POST', json: form });
      expect(res.status, await res.clone().text()).toBe(201);
      return jobSchema.parse(await res.json());
    },
    async get(id: string): Promise<Job> {
      const res = await call(`/api/jobs/${id}`);
      expect(res.status, await res.clone().text()).toBe(200);
      return jobSchema.parse(await res.json());
    },
    /** Every result of the job's latest run (all pages). */
    async results(id: string, state?: JobResultState): Promise<JobResult[]> {
      const job = await client.get(id);
      const run = job.runs[0];
      if (!run) return [];
      const all: JobResult[] = [];
      let after: string | null = null;
      do {
        const q = new URLSearchParams({ size: '2', ...(state ? { state } : {}), ...(after ? { after } : {}) });
        const res = await call(`/api/jobs/${id}/runs/${run.id}/results?${q}`);
        expect(res.status).toBe(200);
        const page = jobResultsPageSchema.parse(await res.json());
        all.push(...page.results);
        after = page.next;
      } while (after);
      return all;
    },
    /** Waits until the job's latest run ended (finished or cancelled). */
    async ended(id: string, ms = 30_000): Promise<Job> {
      return waitFor(
        async () => {
          const job = await client.get(id);
          return job.runs[0] && job.runs[0].state !== 'running' ? job : undefined;
        },
        ms,
        `job ${id} run ended`,
      );
    },
  };
  return client;
}

/** An `execute` job form for a shell line. */
export const executeForm = (shell: string, target: JobFormInput['target'], more: Partial<JobFormInput> = {}): JobFormInput => ({
  command: { name: 'execute', parameters: [{ name: 'command', value: shell }] },
  target,
  ...more,
});
