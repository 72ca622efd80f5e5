import { jobResultStates, type JobCounts, type JobResultState } from '@fleetlink/contract';
import { and, asc, desc, eq, getTableColumns, gt, inArray, isNotNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Member } from '../../auth/principal.js';
import type { Db } from '../../db/client.js';
import { jobResults, jobRuns, jobs, organizations } from '../../db/schema/index.js';
import { resolveTarget } from './job-targets.js';

export type JobRow = typeof jobs.$inferSelect;
export type JobRunRow = typeof jobRuns.$inferSelect;
export type JobResultRow = typeof jobResults.$inferSelect;
/** A result without its output. */
export type JobResultSummary = Omit<JobResultRow, 'stdout' | 'stderr'>;
export type NewJob = typeof jobs.$inferInsert;

/** One device's result a console took to send. */
export interface ClaimedResult {
  runId: string;
  deviceId: string;
  deviceName: string;
  jobId: string;
  commandName: string;
  parameters: { name: string; value: string }[];
  createdBy: string;
  createdBySubject: string | null;
  /** Whether the job's creator is still a member of the device's organization now. */
  allowed: boolean;
}

/** How a device's result ended, as the console writes it. */
export interface ResultEnd {
  state: Extract<JobResultState, 'succeeded' | 'failed' | 'skipped'>;
  exitCode?: number | null;
  durationMs?: number | null;
  reason?: string | null;
  stdout?: string;
  stderr?: string;
}

/** A run that ended, with what each device came to: the console that ended it writes its audit entry. */
export interface EndedRun {
  id: string;
  jobId: string;
  number: number;
  state: 'finished' | 'cancelled';
  createdBy: string;
  createdBySubject: string | null;
}

const RESULT_INSERT_CHUNK = 1000;

export const emptyCounts = (): JobCounts => Object.fromEntries(jobResultStates.map((s) => [s, 0])) as JobCounts;

const REASONS = {
  expired: 'The device did not come online before the job expired.',
  lapsed: 'The console sending it stopped before the device answered: it may or may not have run.',
  deleted: 'The device was deleted.',
  cancelled: 'The job was cancelled before it reached the device.',
};

/** The SQL of fleet jobs (db/schema/jobs.ts). */
export class JobsRepository {
  constructor(private readonly db: Db) {}

  async insert(job: NewJob): Promise<void> {
    await this.db.insert(jobs).values(job);
  }

  async find(id: string): Promise<JobRow | undefined> {
    const [row] = await this.db.select().from(jobs).where(eq(jobs.id, id));
    return row;
  }

  async organizationName(id: string): Promise<string | undefined> {
    const [row] = await this.db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, id));
    return row?.name;
  }

  /** The creator's jobs, newest first. */
  listOf(createdBy: string, limit: number): Promise<JobRow[]> {
    return this.db.select().from(jobs).where(eq(jobs.createdBy, createdBy)).orderBy(desc(jobs.createdAt), desc(jobs.id)).limit(limit);
  }

  runsOf(jobIds: string[], latestOnly = false): Promise<JobRunRow[]> {
    if (!jobIds.length) return Promise.resolve([]);
    const q = latestOnly
      ? this.db
          .selectDistinctOn([jobRuns.jobId])
          .from(jobRuns)
          .where(inArray(jobRuns.jobId, jobIds))
          .orderBy(jobRuns.jobId, desc(jobRuns.number))
      : this.db.select().from(jobRuns).where(inArray(jobRuns.jobId, jobIds)).orderBy(desc(jobRuns.number));
    return q;
  }

  async findRun(jobId: string, runId: string): Promise<JobRunRow | undefined> {
    const [row] = await this.db.select().from(jobRuns).where(and(eq(jobRuns.id, runId), eq(jobRuns.jobId, jobId)));
    return row;
  }

  /** Per run, how many of its devices are in each state. */
  async countsOf(runIds: string[]): Promise<Map<string, JobCounts>> {
    const counts = new Map<string, JobCounts>(runIds.map((id) => [id, emptyCounts()]));
    if (!runIds.length) return counts;
    const rows = await this.db
      .select({ runId: jobResults.runId, state: jobResults.state, n: sql<number>`count(*)::int` })
      .from(jobResults)
      .where(inArray(jobResults.runId, runIds))
      .groupBy(jobResults.runId, jobResults.state);
    for (const r of rows) counts.get(r.runId)![r.state] = r.n;
    return counts;
  }

  /**
   * Starts the runs that are due, one job at a time: the job's row is locked (SKIP LOCKED, so two
   * consoles start different jobs, never one twice), its target resolved for its creator, a result
   * row written per device, and `next_run_at` moved to `next(job)` in the same transaction.
   */
  async startDue(next: (job: JobRow, now: Date) => Date | null, now = new Date()): Promise<{ job: JobRow; run: JobRunRow }[]> {
    const started: { job: JobRow; run: JobRunRow }[] = [];
    for (;;) {
      const one = await this.db.transaction(async (tx) => {
        const [job] = await tx
          .select()
          .from(jobs)
          .where(and(isNotNull(jobs.nextRunAt), lte(jobs.nextRunAt, now)))
          .orderBy(asc(jobs.nextRunAt))
          .limit(1)
          .for('update', { skipLocked: true });
        if (!job) return undefined;
        const member: Member = { username: job.createdBy, organizationLimit: job.organizationLimit ?? undefined };
        const targets = await resolveTarget(tx, member, job.target);
        const [last] = await tx.select({ n: sql<number>`coalesce(max(${jobRuns.number}), 0)::int` }).from(jobRuns).where(eq(jobRuns.jobId, job.id));
        const [run] = await tx
          .insert(jobRuns)
          .values({
            id: crypto.randomUUID(),
            jobId: job.id,
            number: (last?.n ?? 0) + 1,
            state: 'running',
            startedAt: now,
            expiresAt: new Date(now.getTime() + job.expiryHours * 3600_000),
            total: targets.length,
          })
          .returning();
        for (let i = 0; i < targets.length; i += RESULT_INSERT_CHUNK) {
          await tx.insert(jobResults).values(targets.slice(i, i + RESULT_INSERT_CHUNK).map((d) => ({ runId: run!.id, deviceId: d.id, deviceName: d.name, state: 'queued' as const })));
        }
        await tx.update(jobs).set({ nextRunAt: next(job, now) }).where(eq(jobs.id, job.id));
        return { job, run: run! };
      });
      if (!one) return started;
      started.push(one);
    }
  }

  /**
   * Takes up to `limit` waiting results whose device is online, for `consoleId`: locked rows are
   * another console's to take (SKIP LOCKED), and the claim holds for the job's lease. Answers with
   * whether the creator may still reach each device (it may have moved to another organization).
   */
  async claim(consoleId: string, limit: number): Promise<ClaimedResult[]> {
    const result = await this.db.execute<{
      run_id: string;
      device_id: string;
      device_name: string;
      job_id: string;
      command_name: string;
      parameters: { name: string; value: string }[];
      created_by: string;
      created_by_subject: string | null;
      allowed: boolean;
    }>(sql`
      with picked as (
        select r.run_id, r.device_id from job_results r
        join job_runs j on j.id = r.run_id
        join devices d on d.id = r.device_id
        where r.state = 'queued' and d.online and j.state = 'running' and j.expires_at > now()
          and (r.lease_until is null or r.lease_until <= now())
        order by j.started_at
        limit ${limit}
        for update of r skip locked
      )
      update job_results r
      set state = 'running', claimed_by = ${consoleId}, started_at = now(), lease_until = now() + make_interval(secs => b.lease_seconds)
      from picked, job_runs j, jobs b
      where r.run_id = picked.run_id and r.device_id = picked.device_id and j.id = r.run_id and b.id = j.job_id
      returning r.run_id, r.device_id, r.device_name, j.job_id, b.command_name, b.parameters, b.created_by, b.created_by_subject,
        exists (
          select 1 from devices d join organization_members m on m.organization_id = d.organization_id
          where d.id = r.device_id and m.email = b.created_by
            and (b.organization_limit is null or d.organization_id::text = any(b.organization_limit))
        ) as allowed`);
    return result.rows.map((r) => ({
      runId: r.run_id,
      deviceId: r.device_id,
      deviceName: r.device_name,
      jobId: r.job_id,
      commandName: r.command_name,
      parameters: r.parameters,
      createdBy: r.created_by,
      createdBySubject: r.created_by_subject,
      allowed: r.allowed,
    }));
  }

  /** Writes how a claimed result ended, if the claim is still this console's. */
  /**
   * A claimed result whose command never left the console (its message server away): queued again,
   * not to be claimed before `afterSeconds` (a queued row's lease_until is when it may be, issue 67).
   */
  async requeue(consoleId: string, runId: string, deviceId: string, afterSeconds: number): Promise<void> {
    await this.db
      .update(jobResults)
      .set({ state: 'queued', claimedBy: null, startedAt: null, leaseUntil: sql`now() + make_interval(secs => ${afterSeconds})` })
      .where(and(eq(jobResults.runId, runId), eq(jobResults.deviceId, deviceId), eq(jobResults.state, 'running'), eq(jobResults.claimedBy, consoleId)));
  }

  async finish(consoleId: string, runId: string, deviceId: string, end: ResultEnd): Promise<boolean> {
    const rows = await this.db
      .update(jobResults)
      .set({
        state: end.state,
        exitCode: end.exitCode ?? null,
        durationMs: end.durationMs ?? null,
        reason: end.reason ?? null,
        stdout: end.stdout ?? '',
        stderr: end.stderr ?? '',
        finishedAt: new Date(),
        leaseUntil: null,
      })
      .where(and(eq(jobResults.runId, runId), eq(jobResults.deviceId, deviceId), eq(jobResults.state, 'running'), eq(jobResults.claimedBy, consoleId)))
      .returning({ runId: jobResults.runId });
    return rows.length > 0;
  }

  /**
   * Settles what no console will: results past their run's expiry, claims whose lease ended (their
   * console died or lost the database), devices deleted.
   */
  async sweep(now = new Date()): Promise<void> {
    const at = now.toISOString();
    await this.db.execute(sql`
      update job_results r set state = 'expired', reason = ${REASONS.expired}, finished_at = ${at}::timestamptz
      from job_runs j where j.id = r.run_id and r.state = 'queued' and j.expires_at <= ${at}::timestamptz`);
    await this.db.execute(sql`
      update job_results set state = 'failed', reason = ${REASONS.lapsed}, finished_at = ${at}::timestamptz, lease_until = null
      where state = 'running' and lease_until < ${at}::timestamptz`);
    await this.db.execute(sql`
      update job_results r set state = 'skipped', reason = ${REASONS.deleted}, finished_at = ${at}::timestamptz
      where r.state = 'queued' and not exists (select 1 from devices d where d.id = r.device_id)`);
  }

  /**
   * Ends the running runs that have nothing left queued or running (all of them, or `runIds`):
   * one conditional UPDATE, so of two consoles only one ends each run and writes its entry.
   */
  async endSettledRuns(runIds?: string[]): Promise<EndedRun[]> {
    const only: SQL = runIds ? (runIds.length ? sql`and j.id in (${sql.join(runIds.map((id) => sql`${id}::uuid`), sql`, `)})` : sql`and false`) : sql``;
    const result = await this.db.execute<{ id: string; job_id: string; number: number; state: 'finished' | 'cancelled'; created_by: string; created_by_subject: string | null }>(sql`
      update job_runs j set finished_at = now(), state = case when b.cancelled_at is null then 'finished' else 'cancelled' end
      from jobs b
      where b.id = j.job_id and j.state = 'running' ${only}
        and not exists (select 1 from job_results r where r.run_id = j.id and r.state in ('queued', 'running'))
      returning j.id, j.job_id, j.number, j.state, b.created_by, b.created_by_subject`);
    return result.rows.map((r) => ({ id: r.id, jobId: r.job_id, number: r.number, state: r.state, createdBy: r.created_by, createdBySubject: r.created_by_subject }));
  }

  /** Stops a job: no further run, and what has not started is cancelled. False when it was cancelled already. */
  async cancel(id: string): Promise<{ runIds: string[]; cancelled: number } | undefined> {
    return this.db.transaction(async (tx) => {
      const [job] = await tx
        .update(jobs)
        .set({ cancelledAt: new Date(), nextRunAt: null })
        .where(and(eq(jobs.id, id), sql`${jobs.cancelledAt} is null`))
        .returning({ id: jobs.id });
      if (!job) return undefined;
      const runs = await tx.select({ id: jobRuns.id }).from(jobRuns).where(and(eq(jobRuns.jobId, id), eq(jobRuns.state, 'running')));
      const runIds = runs.map((r) => r.id);
      if (!runIds.length) return { runIds, cancelled: 0 };
      const cancelled = await tx
        .update(jobResults)
        .set({ state: 'cancelled', reason: REASONS.cancelled, finishedAt: new Date() })
        .where(and(inArray(jobResults.runId, runIds), eq(jobResults.state, 'queued')))
        .returning({ deviceId: jobResults.deviceId });
      return { runIds, cancelled: cancelled.length };
    });
  }

  /**
   * A page of a run's results in name order, after the cursor's (name, id); the output (up to
   * 128 KiB a row) only for the CSV: the page's table, read again at each live event, shows none.
   */
  resultsPage(runId: string, o: { state?: JobResultState; after?: { name: string; id: string }; size: number }): Promise<JobResultSummary[]>;
  resultsPage(runId: string, o: { after?: { name: string; id: string }; size: number; withOutput: true }): Promise<JobResultRow[]>;
  resultsPage(runId: string, o: { state?: JobResultState; after?: { name: string; id: string }; size: number; withOutput?: boolean }): Promise<JobResultSummary[]> {
    const after = o.after
      ? or(gt(jobResults.deviceName, o.after.name), and(eq(jobResults.deviceName, o.after.name), gt(jobResults.deviceId, o.after.id)))
      : undefined;
    const { stdout, stderr, ...summary } = getTableColumns(jobResults);
    return this.db
      .select(o.withOutput ? { ...summary, stdout, stderr } : summary)
      .from(jobResults)
      .where(and(eq(jobResults.runId, runId), o.state ? eq(jobResults.state, o.state) : undefined, after))
      .orderBy(asc(jobResults.deviceName), asc(jobResults.deviceId))
      .limit(o.size);
  }

  async result(runId: string, deviceId: string): Promise<JobResultRow | undefined> {
    const [row] = await this.db
      .select()
      .from(jobResults)
      .where(and(eq(jobResults.runId, runId), eq(jobResults.deviceId, deviceId)));
    return row;
  }

  /** Ids of a run's devices in one state (the failed ones, to run again). */
  async deviceIdsIn(runId: string, states: JobResultState[]): Promise<string[]> {
    const rows = await this.db
      .select({ id: jobResults.deviceId })
      .from(jobResults)
      .where(and(eq(jobResults.runId, runId), inArray(jobResults.state, states)))
      .orderBy(asc(jobResults.deviceName), asc(jobResults.deviceId));
    return rows.map((r) => r.id);
  }
}

