import { randomUUID } from 'node:crypto';
import { AuditKind, commandOutputSchema, commandTimeoutSeconds, RequestName, type CommandOutput } from '@fleetlink/contract';
import type { AuditTrail } from '../audit/audit-trail.js';
import { DeviceRequestError, RequestNotSent } from '../broker/device-request-error.js';
import type { MessageHub } from '../broker/message-hub.js';
import type { BusChange, LiveChanges, LiveSink } from '../live/live-bus.js';
import type { ClaimedResult, EndedRun, JobRow, JobsRepository, ResultEnd } from './jobs.repository.js';
import { nextRunOf } from './job-schedule.js';

/** What the answer needs on top of the command's own timeout (as a person's command has). */
const ANSWER_GRACE_MS = 3_000;
/** Results ended close together settle their runs in one statement. */
const SETTLE_AFTER_MS = 200;
/** A command that could not be sent (its message server away) is claimed again after this long. */
const NOT_SENT_RETRY_SECONDS = 10;

const MOVED = "The device moved to an organization the job's creator is not a member of.";
const CONSOLE_STOPPED = 'The console sending it stopped before the device answered: it may or may not have run.';

type Log = { warn(o: object, m: string): void; info(o: object, m: string): void };

/**
 * Does the work of fleet jobs on this console (issue 64), beside every other console on the same
 * database (DESIGN §5b): each round starts the runs that are due, settles what expired or was
 * left by a console that died, and sends the command to online devices whose results it claims,
 * at most `concurrency` in flight. A device coming online (the live bus says so, whichever console
 * heard it) wakes it at once; otherwise it looks every `tickMs`.
 */
export class JobRunner implements LiveSink {
  readonly consoleId = randomUUID();
  private timer?: NodeJS.Timeout;
  private round?: Promise<void>;
  private roundAgain = false;
  private fullDue = false;
  private settleTimer?: NodeJS.Timeout;
  private readonly toSettle = new Set<string>();
  private readonly inFlight = new Map<string, ClaimedResult>();
  private stopped = false;

  constructor(
    private readonly o: {
      repo: JobsRepository;
      hub: Pick<MessageHub, 'request'>;
      audit: AuditTrail;
      live: LiveChanges;
      concurrency: number;
      tickMs: number;
      cronSeconds: boolean;
      log: Log;
    },
  ) {}

  start(): this {
    this.timer ??= setInterval(() => this.wake(), this.o.tickMs).unref();
    this.wake();
    return this;
  }

  /**
   * A round soon: `full` (a job was created, the timer) starts due runs and settles what lapsed
   * before sending; otherwise (room freed by an answer, a device came online) it only sends more.
   * Rounds never overlap here; what asks during one gets one more after it.
   */
  wake(full = true): void {
    if (this.stopped) return;
    if (full) this.fullDue = true;
    if (this.round) {
      this.roundAgain = true;
      return;
    }
    this.round = this.work()
      .catch((err: Error) => this.o.log.warn({ err: err.message }, 'jobs: a round failed; the next one tries again'))
      .finally(() => {
        this.round = undefined;
        if (this.roundAgain) {
          this.roundAgain = false;
          this.wake(false);
        }
      });
  }

  /** Waits for the round going on (tests, and stop). */
  async idle(): Promise<void> {
    while (this.round) await this.round;
  }

  private async work() {
    if (this.fullDue) {
      this.fullDue = false;
      const started = await this.o.repo.startDue((job, now) => nextRunOf(job.schedule, now, this.o.cronSeconds));
      for (const { job, run } of started) {
        await this.o.audit.record(actorOf(job), { kind: AuditKind.JobRunStart, details: { jobId: job.id, runId: run.id, run: run.number, devices: run.total } }, { error: null });
        this.o.live.job(job.id, job.createdBy);
      }
      await this.o.repo.sweep();
      // Every run: one cancelled, or left by a console that stopped, has nothing left to wait for either.
      await this.settle(true);
    }
    await this.dispatch();
  }

  private async dispatch() {
    while (!this.stopped) {
      const room = this.o.concurrency - this.inFlight.size;
      if (room <= 0) return;
      const claimed = await this.o.repo.claim(this.consoleId, room);
      for (const c of claimed) {
        const key = `${c.runId}/${c.deviceId}`;
        this.inFlight.set(key, c);
        void this.send(c)
          .catch((err: Error) => this.o.log.warn({ err: err.message, deviceId: c.deviceId }, 'jobs: a result could not be written; its claim lapses'))
          .finally(() => {
            this.inFlight.delete(key);
            // Room again: claim more (coalesced with whatever else wakes it).
            this.wake(false);
          });
      }
      if (claimed.length < room) return;
    }
  }

  /** Sends one device its command and writes how it ended, with its audit entry. */
  private async send(c: ClaimedResult) {
    if (!c.allowed) return this.end(c, { state: 'skipped', reason: MOVED });
    const parameters = Object.fromEntries(c.parameters.map((p) => [p.name, p.value]));
    const timeout = commandTimeoutSeconds(parameters);
    const seconds = typeof timeout === 'number' ? timeout : 30;
    let end: ResultEnd;
    try {
      const answer = await this.o.hub.request(c.deviceId, RequestName.Command, { name: c.commandName, parameters }, { timeoutMs: seconds * 1000 + ANSWER_GRACE_MS });
      const output = commandOutputSchema.safeParse(answer);
      end = output.success ? endOf(output.data, seconds) : { state: 'failed', reason: 'The device answered with something that is not a command result.' };
    } catch (err) {
      // Never sent (the broker is away): nothing ran, so it waits and goes again, until the run expires.
      if (err instanceof RequestNotSent) return this.o.repo.requeue(this.consoleId, c.runId, c.deviceId, NOT_SENT_RETRY_SECONDS);
      end = { state: 'failed', reason: failureReason(err, seconds) };
    }
    if (this.stopped) return;
    const written = await this.end(c, end);
    if (!written) return;
    await this.o.audit.record(
      { username: c.createdBy, subject: c.createdBySubject },
      {
        kind: AuditKind.Command,
        deviceId: c.deviceId,
        details: { name: c.commandName, parameters, jobId: c.jobId, runId: c.runId, exitCode: end.exitCode ?? null, durationMs: end.durationMs ?? null },
      },
      { error: end.state === 'succeeded' ? null : end.reason ?? 'failed' },
    );
  }

  private async end(c: ClaimedResult, end: ResultEnd): Promise<boolean> {
    const written = await this.o.repo.finish(this.consoleId, c.runId, c.deviceId, end);
    if (written) {
      this.o.live.job(c.jobId, c.createdBy);
      this.settleSoon(c.runId);
    }
    return written;
  }

  private settleSoon(runId: string) {
    this.toSettle.add(runId);
    this.settleTimer ??= setTimeout(() => {
      this.settleTimer = undefined;
      void this.settle().catch((err: Error) => this.o.log.warn({ err: err.message }, 'jobs: runs could not be settled; the next round does it'));
    }, SETTLE_AFTER_MS);
  }

  /**
   * Ends the runs with nothing left to do (those results came in for, or `all`), each with its
   * entry and counts, by whichever console ends it.
   */
  async settle(all = false): Promise<void> {
    const runIds = [...this.toSettle];
    this.toSettle.clear();
    const ended = await this.o.repo.endSettledRuns(all ? undefined : runIds);
    if (!ended.length) return;
    const counts = await this.o.repo.countsOf(ended.map((r) => r.id));
    for (const run of ended) await this.recordEnd(run, counts.get(run.id)!);
  }

  private async recordEnd(run: EndedRun, counts: Record<string, number>) {
    const nonZero = Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));
    await this.o.audit.record(
      { username: run.createdBy, subject: run.createdBySubject },
      { kind: AuditKind.JobRunFinish, details: { jobId: run.jobId, runId: run.id, run: run.number, state: run.state, counts: nonZero } },
      { error: null },
    );
    this.o.live.job(run.jobId, run.createdBy);
  }

  // LiveSink: only a device coming online matters here (its queued results can go now). It needs
  // a claim only: starting due runs and settling lapsed ones wait for the timer, as they did, so a
  // fleet reconnecting at once (a message server restarted) costs one statement a flush, not six.
  devices(changes: BusChange[]): void {
    if (changes.some((c) => c.online === true)) this.wake(false);
  }
  servers(): void {}
  access(): void {}
  resync(): void {
    this.wake();
  }

  /**
   * Stops claiming; what is in flight is written off now with the reason (the hub stops next and
   * its answers would be lost), so no row waits for its lease to lapse after a clean stop.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.settleTimer);
    await this.idle();
    const left = [...this.inFlight.values()];
    await Promise.all(left.map((c) => this.o.repo.finish(this.consoleId, c.runId, c.deviceId, { state: 'failed', reason: CONSOLE_STOPPED }).catch(() => false)));
  }
}

const actorOf = (job: JobRow) => ({ username: job.createdBy, subject: job.createdBySubject });

/** A command's output as a result: exit 0 succeeded; anything else failed, with why in words. */
function endOf(out: CommandOutput, seconds: number): ResultEnd {
  const base = { exitCode: out.exitCode, durationMs: out.durationMs, stdout: out.stdout, stderr: out.stderr };
  if (out.timedOut) return { ...base, state: 'failed', reason: `It ran past its timeout of ${seconds} seconds and was killed.` };
  if (out.exitCode === 0) return { ...base, state: 'succeeded' };
  if (out.exitCode === null) return { ...base, state: 'failed', reason: `It was ended by ${out.signal ?? 'a signal'}.` };
  return { ...base, state: 'failed', reason: `It exited with code ${out.exitCode}.` };
}

function failureReason(err: unknown, seconds: number): string {
  if (!(err instanceof DeviceRequestError)) return `It could not be sent: ${(err as Error).message}`;
  switch (err.failure) {
    case 'refused':
      return err.deviceMessage ?? err.message;
    case 'offline':
      return 'The device went offline while the command ran: its answer is lost.';
    case 'lost':
      return "The console's connection to the device's message server was lost while the command ran: its answer is lost.";
    case 'timeout':
      return `The device did not answer within ${seconds} seconds: it may have lost its connection.`;
  }
}
