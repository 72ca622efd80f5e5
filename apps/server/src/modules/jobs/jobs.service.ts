import {
  AuditKind,
  CommandName,
  commandTimeoutSeconds,
  type Job,
  type JobForm,
  type JobList,
  type JobPreview,
  type JobResult,
  type JobResultOutput,
  type JobResultsPage,
  type JobResultsQuery,
  type JobRun,
} from '@fleetlink/contract';
import type { Principal } from '../../auth/principal.js';
import type { Db } from '../../db/client.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/app-error.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { LiveChanges } from '../live/live-bus.js';
import { jobsCsvHeader, jobsCsvLine } from './job-csv.js';
import { firstRunsOf } from './job-schedule.js';
import { describeTarget, resolveTarget } from './job-targets.js';
import { emptyCounts, type JobResultSummary, type JobRow, type JobRunRow, type JobsRepository } from './jobs.repository.js';

/** The commands a job may send: those the agent knows (a folder listing is no job). */
const JOB_COMMANDS: readonly string[] = Object.values(CommandName);
/** How long past its command's timeout a console's claim on one device holds before another settles it. */
const LEASE_MARGIN_SECONDS = 10;
const LIST_MAX = 200;
/** Rows per query while a CSV export streams. */
const CSV_CHUNK = 500;

/**
 * Fleet jobs (issue 64): checked here, stored, and left to the job runners of every console to
 * start and send. A job is its creator's: others get 404, as for an id that does not exist.
 */
export class JobsService {
  constructor(
    private readonly o: {
      db: Db;
      repo: JobsRepository;
      audit: AuditTrail;
      live: LiveChanges;
      /** The runner of this console: told at once when a job may start. */
      wake: () => void;
      cronSeconds: boolean;
    },
  ) {}

  /** What the confirmation shows: how many devices the target reaches now, and the schedule's next times. */
  async preview(p: Principal, form: JobForm): Promise<JobPreview> {
    const { devices, runs } = await this.check(p, form);
    return { devices: devices.length, nextRuns: runs.next.map((d) => d.toISOString()) };
  }

  async create(p: Principal, form: JobForm, rerunOf: string | null = null): Promise<Job> {
    const { devices, runs, targetText, timeout } = await this.check(p, form);
    const id = crypto.randomUUID();
    const row: JobRow = {
      id,
      createdBy: p.username,
      createdBySubject: p.subject || null,
      organizationLimit: p.organizationLimit ? [...p.organizationLimit] : null,
      commandName: form.command.name,
      parameters: form.command.parameters,
      target: form.target,
      targetText,
      expiryHours: form.expiryHours,
      leaseSeconds: timeout + LEASE_MARGIN_SECONDS,
      schedule: form.schedule,
      nextRunAt: runs.first,
      cancelledAt: null,
      rerunOf,
      createdAt: new Date(),
    };
    await this.o.audit.track(
      p,
      {
        kind: AuditKind.JobCreate,
        details: {
          jobId: id,
          name: form.command.name,
          parameters: Object.fromEntries(form.command.parameters.map((r) => [r.name, r.value])),
          target: targetText,
          devices: devices.length,
          schedule: scheduleText(form),
          ...(rerunOf ? { rerunOf } : {}),
        },
      },
      () => this.o.repo.insert(row),
    );
    this.o.wake();
    return this.toJob(row, []);
  }

  async list(p: Principal): Promise<JobList> {
    const rows = await this.o.repo.listOf(p.username, LIST_MAX);
    const latest = await this.o.repo.runsOf(
      rows.map((r) => r.id),
      true,
    );
    const counts = await this.o.repo.countsOf(latest.map((r) => r.id));
    const byJob = new Map(latest.map((r) => [r.jobId, toRun(r, counts.get(r.id)!)]));
    return {
      jobs: rows.map((row) => {
        const { runs: _runs, ...job } = this.toJob(row, byJob.has(row.id) ? [byJob.get(row.id)!] : []);
        return { ...job, lastRun: byJob.get(row.id) ?? null };
      }),
    };
  }

  async get(p: Principal, id: string): Promise<Job> {
    const row = await this.own(p, id);
    const runs = await this.o.repo.runsOf([id]);
    const counts = await this.o.repo.countsOf(runs.map((r) => r.id));
    return this.toJob(
      row,
      runs.map((r) => toRun(r, counts.get(r.id)!)),
    );
  }

  /** Stops the job: no further run; devices not yet sent to are cancelled; what runs finishes. */
  async cancel(p: Principal, id: string): Promise<Job> {
    const row = await this.own(p, id);
    if (p.apiToken?.scope === 'READ') throw forbidden('This API token is read-only: it cannot cancel jobs.');
    if (row.cancelledAt) return this.get(p, id);
    const running = (await this.o.repo.runsOf([id])).some((r) => r.state === 'running');
    if (!row.nextRunAt && !running) throw conflict('This job has finished: there is nothing left to cancel.');
    await this.o.audit.track(
      p,
      { kind: AuditKind.JobCancel, details: { jobId: id, name: row.commandName, target: row.targetText } },
      async () => {
        const done = await this.o.repo.cancel(id);
        return done ?? { runIds: [], cancelled: 0 };
      },
      (done) => ({ details: { cancelledDevices: done.cancelled } }),
    );
    this.o.live.job(id, row.createdBy);
    this.o.wake();
    return this.get(p, id);
  }

  /** A new job, now, of the devices that failed in one run: the same command, parameters and expiry. */
  async rerunFailed(p: Principal, id: string, runId: string): Promise<Job> {
    const row = await this.own(p, id);
    await this.runOf(row, runId);
    const ids = await this.o.repo.deviceIdsIn(runId, ['failed']);
    if (!ids.length) throw badRequest('No device failed in this run: there is nothing to run again.');
    return this.create(
      p,
      {
        command: { name: row.commandName, parameters: row.parameters },
        target: { kind: 'devices', ids },
        expiryHours: row.expiryHours,
        schedule: { kind: 'now' },
      },
      id,
    );
  }

  async results(p: Principal, id: string, runId: string, q: JobResultsQuery): Promise<JobResultsPage> {
    const row = await this.own(p, id);
    await this.runOf(row, runId);
    const after = q.after ? readCursor(q.after) : undefined;
    const rows = await this.o.repo.resultsPage(runId, { state: q.state, after, size: q.size + 1 });
    const page = rows.slice(0, q.size);
    const last = page[page.length - 1];
    return { results: page.map(toResult), next: rows.length > q.size && last ? cursorOf(last) : null };
  }

  async result(p: Principal, id: string, runId: string, deviceId: string): Promise<JobResultOutput> {
    const row = await this.own(p, id);
    await this.runOf(row, runId);
    const result = await this.o.repo.result(runId, deviceId);
    if (!result) throw notFound('This device is not in the run.');
    return { ...toResult(result), stdout: result.stdout, stderr: result.stderr };
  }

  /** A run's results as CSV lines, read a chunk at a time, so a 10,000-device run never sits in memory whole. */
  async exportCsv(p: Principal, id: string, runId: string): Promise<{ name: string; lines: AsyncIterable<string> }> {
    const row = await this.own(p, id);
    const run = await this.runOf(row, runId);
    const repo = this.o.repo;
    async function* lines() {
      yield jobsCsvHeader();
      let after: { name: string; id: string } | undefined;
      for (;;) {
        const rows = await repo.resultsPage(runId, { after, size: CSV_CHUNK, withOutput: true });
        for (const r of rows) yield jobsCsvLine(r);
        if (rows.length < CSV_CHUNK) return;
        const last = rows[rows.length - 1]!;
        after = { name: last.deviceName, id: last.deviceId };
      }
    }
    return { name: `job-${id.slice(0, 8)}-run-${run.number}`, lines: lines() };
  }

  private async own(p: Principal, id: string): Promise<JobRow> {
    const row = await this.o.repo.find(id);
    if (!row || row.createdBy !== p.username) throw notFound('Job not found.');
    return row;
  }

  private async runOf(job: JobRow, runId: string): Promise<JobRunRow> {
    const run = await this.o.repo.findRun(job.id, runId);
    if (!run) throw notFound('Run not found.');
    return run;
  }

  /**
   * Everything a job must be before it is stored, each failure a 400 naming its field: a command
   * the agent knows with valid parameters, a schedule to come, a target that reaches a device now.
   */
  private async check(p: Principal, form: JobForm) {
    if (p.apiToken?.scope === 'READ') throw forbidden('This API token is read-only: it cannot create jobs.');
    if (!JOB_COMMANDS.includes(form.command.name)) {
      const message = `Command must be one the agent knows: ${JOB_COMMANDS.join(', ')}.`;
      throw badRequest(message, { 'command.name': message });
    }
    const parameters = Object.fromEntries(form.command.parameters.map((r) => [r.name, r.value]));
    const timeout = commandTimeoutSeconds(parameters);
    if (typeof timeout !== 'number') throw badRequest(timeout.error, { 'command.parameters': timeout.error });
    if (form.command.name === CommandName.Execute && !parameters.command) {
      const message = "The command 'execute' needs the parameter 'command': what to run.";
      throw badRequest(message, { 'command.parameters': message });
    }
    const runs = firstRunsOf(form.schedule, new Date(), this.o.cronSeconds);
    if ('error' in runs) throw badRequest(runs.error, { [runs.field]: runs.error });
    const devices = await resolveTarget(this.o.db, p, form.target);
    if (!devices.length) {
      const message = 'The target matches no device you can reach.';
      throw badRequest(message, { target: message });
    }
    const organizationName = form.target.kind === 'organization' ? await this.o.repo.organizationName(form.target.organizationId) : undefined;
    return { devices, runs, timeout, targetText: describeTarget(form.target, organizationName) };
  }

  private toJob(row: JobRow, runs: JobRun[]): Job {
    const running = runs.some((r) => r.state === 'running');
    return {
      id: row.id,
      command: { name: row.commandName, parameters: row.parameters },
      target: row.target,
      targetText: row.targetText,
      expiryHours: row.expiryHours,
      schedule: row.schedule,
      state: row.cancelledAt ? 'cancelled' : running ? 'active' : row.nextRunAt ? 'scheduled' : 'done',
      createdBy: row.createdBy,
      createdAt: row.createdAt.toISOString(),
      nextRunAt: row.nextRunAt?.toISOString() ?? null,
      rerunOf: row.rerunOf,
      runs,
    };
  }
}

function scheduleText(form: JobForm): string {
  const s = form.schedule;
  return s.kind === 'now' ? 'now' : s.kind === 'once' ? `once at ${s.at}` : `cron '${s.expression}' (${s.timezone})`;
}

const toRun = (r: JobRunRow, counts = emptyCounts()): JobRun => ({
  id: r.id,
  number: r.number,
  state: r.state,
  startedAt: r.startedAt.toISOString(),
  expiresAt: r.expiresAt.toISOString(),
  finishedAt: r.finishedAt?.toISOString() ?? null,
  total: r.total,
  counts,
});

const toResult = (r: JobResultSummary): JobResult => ({
  deviceId: r.deviceId,
  deviceName: r.deviceName,
  state: r.state,
  exitCode: r.exitCode,
  durationMs: r.durationMs,
  reason: r.reason,
  startedAt: r.startedAt?.toISOString() ?? null,
  finishedAt: r.finishedAt?.toISOString() ?? null,
});

const cursorOf = (r: JobResultSummary) => Buffer.from(JSON.stringify([r.deviceName, r.deviceId])).toString('base64url');

function readCursor(cursor: string): { name: string; id: string } {
  try {
    const [name, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof name === 'string' && typeof id === 'string' && /^[0-9a-f-]{36}$/.test(id)) return { name, id };
  } catch {
    // Falls through to the 400 below.
  }
  throw badRequest('The page cursor is not one this list gave: start from the first page.', { after: 'The page cursor is not valid.' });
}
