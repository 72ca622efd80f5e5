import type { JobResultState, JobSchedule, JobTarget } from '@fleetlink/contract';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Fleet jobs (issue 64). A job is what a person asked for: a command, a target, when. Each time it
 * starts (once, or at each cron time) it makes a run, whose target is resolved to devices then; each
 * device has one result row in the run. Every console works the same rows (DESIGN §5b): runs are
 * started by the console that locks the job's row (`next_run_at` moves on in the same transaction),
 * results are claimed with FOR UPDATE SKIP LOCKED and carry a lease, so a console that dies leaves
 * rows whose lease ends and which another console settles.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey(),
    /** Who created it (login), for whom its targets are resolved at each run and each device. */
    createdBy: text('created_by').notNull(),
    createdBySubject: text('created_by_subject'),
    /** The organizations an API token limited the creator to, when it was limited. */
    organizationLimit: text('organization_limit').array(),
    commandName: text('command_name').notNull(),
    parameters: jsonb('parameters').$type<{ name: string; value: string }[]>().notNull(),
    target: jsonb('target').$type<JobTarget>().notNull(),
    /** The target in words, as it read when the job was made (an organization's name then). */
    targetText: text('target_text').notNull(),
    expiryHours: integer('expiry_hours').notNull(),
    /** How long a console's claim on one device's result holds: the command's timeout and a margin. */
    leaseSeconds: integer('lease_seconds').notNull(),
    schedule: jsonb('schedule').$type<JobSchedule>().notNull(),
    /** When the next run starts; null once no run is to come (done or cancelled). */
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    rerunOf: uuid('rerun_of'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('jobs_due_idx').on(t.nextRunAt).where(sql`next_run_at IS NOT NULL`),
    index('jobs_creator_idx').on(t.createdBy, t.createdAt.desc()),
  ],
);

export const jobRuns = pgTable(
  'job_runs',
  {
    id: uuid('id').primaryKey(),
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    state: text('state').$type<'running' | 'finished' | 'cancelled'>().notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    total: integer('total').notNull(),
  },
  (t) => [index('job_runs_job_idx').on(t.jobId, t.number.desc()), index('job_runs_running_idx').on(t.state).where(sql`state = 'running'`)],
);

/**
 * One device's result in one run. No foreign key to the device: the row outlives it, with the name
 * it had. Output is the first 64 KiB of each stream.
 */
export const jobResults = pgTable(
  'job_results',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => jobRuns.id, { onDelete: 'cascade' }),
    deviceId: uuid('device_id').notNull(),
    deviceName: text('device_name').notNull(),
    state: text('state').$type<JobResultState>().notNull(),
    /** The console that sent it, and until when its claim holds (the command's timeout and a margin). */
    claimedBy: text('claimed_by'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    exitCode: integer('exit_code'),
    durationMs: integer('duration_ms'),
    reason: text('reason'),
    stdout: text('stdout').notNull().default(''),
    stderr: text('stderr').notNull().default(''),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.deviceId] }),
    // The results table's pages, per state or all, in name order.
    index('job_results_page_idx').on(t.runId, t.deviceName, t.deviceId),
    index('job_results_state_idx').on(t.runId, t.state, t.deviceName, t.deviceId),
    // What the dispatcher and the sweep look for: rows waiting, and claims that may have lapsed.
    index('job_results_queued_idx').on(t.deviceId).where(sql`state = 'queued'`),
    index('job_results_running_idx').on(t.leaseUntil).where(sql`state = 'running'`),
  ],
);
