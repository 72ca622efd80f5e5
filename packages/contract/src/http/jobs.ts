import { Cron } from 'croner';
import { z } from 'zod';
import { commandFormSchema } from '../forms/command-form.js';
import { DEVICE_SEARCH_MAX, deviceStatusFilterSchema } from './devices.js';
import { pageSizeSchema } from './page-size.js';

/**
 * Fleet jobs (issue 64): one command on many devices, now, once later, or on a cron schedule.
 * Devices offline when a run starts get the command when they come online, until the run expires.
 */

export const JOB_EXPIRY_HOURS_DEFAULT = 24;
/** 30 days. */
export const JOB_EXPIRY_HOURS_MAX = 720;
/** The most devices one job may name by id. */
export const JOB_DEVICE_IDS_MAX = 10_000;
/** How much of each output stream a result keeps (bytes of UTF-8, as the agent counts them). */
export const JOB_OUTPUT_KEPT_BYTES = 64 * 1024;
export const JOB_CONCURRENCY_DEFAULT = 100;

const uuid = (label: string) => z.string().uuid(`${label} must be an id.`);

/** Whom a job reaches: resolved to devices when each run starts, within the creator's organizations. */
export const jobTargetSchema = z.discriminatedUnion(
  'kind',
  [
    /** As on /devices/search: the search text and the status tab (none for all). */
    z.object({
      kind: z.literal('search'),
      search: z.string().max(DEVICE_SEARCH_MAX, `Search must be at most ${DEVICE_SEARCH_MAX} characters.`).optional(),
      status: deviceStatusFilterSchema.optional(),
    }),
    z.object({ kind: z.literal('tag'), tag: z.string().trim().min(1, 'Tag is required.').max(64, 'Tag must be at most 64 characters.') }),
    z.object({ kind: z.literal('organization'), organizationId: uuid('Organization') }),
    z.object({
      kind: z.literal('devices'),
      ids: z
        .array(uuid('Each device'), { error: 'Devices must be a list of device ids.' })
        .min(1, 'Pick at least one device.')
        .max(JOB_DEVICE_IDS_MAX, `A job can name at most ${JOB_DEVICE_IDS_MAX} devices; use a search instead.`),
    }),
  ],
  { error: "Target kind must be 'search', 'tag', 'organization' or 'devices'." },
);
export type JobTarget = z.infer<typeof jobTargetSchema>;

/** Whether the time zone is one the runtime knows (an IANA name such as Europe/Berlin). */
function knownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a cron expression with croner (never by hand): five fields, minute to weekday, or six with
 * seconds first where the console allows them (JOB_CRON_SECONDS, for tests and demos). Answers the
 * schedule or the reason it is not one.
 */
export function parseCron(expression: string, o: { timezone?: string; seconds?: boolean } = {}): Cron | { error: string } {
  const fields = expression.trim().split(/\s+/).length;
  // Nicknames (@daily, @hourly …) are croner's too.
  const nickname = /^@\w+$/.test(expression.trim());
  if (!nickname && fields !== 5 && !(o.seconds && fields === 6)) {
    return { error: `Cron expression must have five fields (minute, hour, day of month, month, day of week)${o.seconds ? ', or six with seconds first' : ''}.` };
  }
  try {
    const cron = new Cron(expression.trim(), { paused: true, timezone: o.timezone, mode: o.seconds ? 'auto' : '5-part' });
    if (!cron.nextRun()) return { error: 'Cron expression never matches a time to come.' };
    return cron;
  } catch (err) {
    return { error: `Cron expression is not valid: ${(err as Error).message.replace(/^CronPattern: /, '')}.`.replace(/\.\.$/, '.') };
  }
}

/** The next `n` times of a schedule, from `from`. */
export function nextCronTimes(cron: Cron, n: number, from = new Date()): Date[] {
  return cron.nextRuns(n, from);
}

export const jobScheduleSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('now') }),
    z.object({ kind: z.literal('once'), at: z.iso.datetime({ offset: true, error: 'Start time must be a date and time.' }) }),
    z.object({
      kind: z.literal('cron'),
      expression: z.string().trim().min(1, 'Cron expression is required.').max(120, 'Cron expression must be at most 120 characters.'),
      timezone: z
        .string()
        .max(64)
        .refine(knownTimeZone, 'Time zone is not one this console knows.')
        .default('UTC'),
    }),
  ],
  { error: "Schedule kind must be 'now', 'once' or 'cron'." },
);
export type JobSchedule = z.infer<typeof jobScheduleSchema>;

/** POST /api/jobs and POST /api/jobs/preview. */
export const jobFormSchema = z.object({
  command: commandFormSchema,
  target: jobTargetSchema,
  /** How long a device offline at the run's start may still get the command. */
  expiryHours: z.coerce
    .number({ error: 'Expiry must be a number of hours.' })
    .int('Expiry must be a whole number of hours.')
    .min(1, 'Expiry must be at least 1 hour.')
    .max(JOB_EXPIRY_HOURS_MAX, `Expiry must be at most ${JOB_EXPIRY_HOURS_MAX} hours (30 days).`)
    .default(JOB_EXPIRY_HOURS_DEFAULT),
  schedule: jobScheduleSchema.default({ kind: 'now' }),
});
export type JobForm = z.infer<typeof jobFormSchema>;
export type JobFormInput = z.input<typeof jobFormSchema>;

/** What a person confirms before creating: how many devices the target reaches now. */
export const jobPreviewSchema = z.object({
  devices: z.number().int(),
  /** For a schedule: the next three start times (ISO). */
  nextRuns: z.array(z.string()),
});
export type JobPreview = z.infer<typeof jobPreviewSchema>;

export const jobResultStates = ['queued', 'running', 'succeeded', 'failed', 'expired', 'cancelled', 'skipped'] as const;
export const jobResultStateSchema = z.enum(jobResultStates);
export type JobResultState = z.infer<typeof jobResultStateSchema>;
export type JobCounts = Record<JobResultState, number>;
export const jobCountsSchema = z.object(Object.fromEntries(jobResultStates.map((s) => [s, z.number().int()])) as Record<JobResultState, z.ZodNumber>);

export const jobRunSchema = z.object({
  id: z.string(),
  number: z.number().int(),
  state: z.enum(['running', 'finished', 'cancelled']),
  startedAt: z.string(),
  expiresAt: z.string(),
  finishedAt: z.string().nullable(),
  total: z.number().int(),
  counts: jobCountsSchema,
});
export type JobRun = z.infer<typeof jobRunSchema>;

export const jobSchema = z.object({
  id: z.string(),
  command: commandFormSchema,
  target: jobTargetSchema,
  /** The target in words ("devices matching 'kiosk', online"). */
  targetText: z.string(),
  expiryHours: z.number().int(),
  schedule: jobScheduleSchema,
  /** scheduled: runs to come; active: a run is going; done: nothing more will run; cancelled. */
  state: z.enum(['scheduled', 'active', 'done', 'cancelled']),
  createdBy: z.string(),
  createdAt: z.string(),
  nextRunAt: z.string().nullable(),
  /** The job this one re-runs the failed devices of. */
  rerunOf: z.string().nullable(),
  /** The latest run first. */
  runs: z.array(jobRunSchema),
});
export type Job = z.infer<typeof jobSchema>;

export const jobListSchema = z.object({ jobs: z.array(jobSchema.omit({ runs: true }).extend({ lastRun: jobRunSchema.nullable() })) });
export type JobList = z.infer<typeof jobListSchema>;

export const jobResultSchema = z.object({
  deviceId: z.string(),
  deviceName: z.string(),
  state: jobResultStateSchema,
  exitCode: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  /** Why it failed, was skipped or expired, in words. */
  reason: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type JobResult = z.infer<typeof jobResultSchema>;

export const jobResultOutputSchema = jobResultSchema.extend({ stdout: z.string(), stderr: z.string() });
export type JobResultOutput = z.infer<typeof jobResultOutputSchema>;

export const JOB_RESULTS_PAGE_MAX = 200;

export const jobResultsQuerySchema = z.object({
  state: jobResultStateSchema.optional(),
  /** The cursor of the last page's end (keyset: device name, then id). */
  after: z.string().max(600).optional(),
  size: pageSizeSchema(JOB_RESULTS_PAGE_MAX, 50),
});
export type JobResultsQuery = z.infer<typeof jobResultsQuerySchema>;

export const jobResultsPageSchema = z.object({ results: z.array(jobResultSchema), next: z.string().nullable() });
export type JobResultsPage = z.infer<typeof jobResultsPageSchema>;

export const jobIdParamsSchema = z.object({ id: uuid('Job id') });
export const jobRunParamsSchema = z.object({ id: uuid('Job id'), runId: uuid('Run id') });
export const jobResultParamsSchema = jobRunParamsSchema.extend({ deviceId: uuid('Device id') });

/** Words for each state, as the page and the CSV show them. */
export const jobResultStateLabels: Record<JobResultState, string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
  expired: 'Expired',
  cancelled: 'Cancelled',
  skipped: 'Skipped',
};

export const jobRoutes = {
  list: { method: 'GET', path: '/api/jobs', role: 'ADMIN' },
  preview: { method: 'POST', path: '/api/jobs/preview', role: 'ADMIN' },
  create: { method: 'POST', path: '/api/jobs', role: 'ADMIN' },
  get: { method: 'GET', path: '/api/jobs/:id', role: 'ADMIN' },
  cancel: { method: 'POST', path: '/api/jobs/:id/cancel', role: 'ADMIN' },
  rerunFailed: { method: 'POST', path: '/api/jobs/:id/runs/:runId/rerun-failed', role: 'ADMIN' },
  results: { method: 'GET', path: '/api/jobs/:id/runs/:runId/results', role: 'ADMIN' },
  result: { method: 'GET', path: '/api/jobs/:id/runs/:runId/results/:deviceId', role: 'ADMIN' },
  exportCsv: { method: 'GET', path: '/api/jobs/:id/runs/:runId/export', role: 'ADMIN' },
} as const;
