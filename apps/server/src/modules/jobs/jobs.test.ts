import { randomUUID } from 'node:crypto';
import { AuditKind, type JobTarget } from '@fleetlink/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, devices, jobRuns, jobs, organizations } from '../../db/schema/index.js';
import {
  embeddedSetup,
  memberDevice,
  onlineMemberDevice,
  runAgentOnline,
  tearDown,
  waitFor,
  type AgentProcess,
  type MessagingSetup,
  type OnlineMemberDevice,
} from '../broker/broker.test-support.js';
import { openLive } from '../live/live.test-support.js';
import { executeForm, jobsClient } from './jobs.test-support.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Issue 64: fleet jobs through the real console, broker and agents. Offline devices wait for their
 * agent; runs expire, are cancelled, repeat on a cron schedule; a device moved away is skipped.
 */
describe('fleet jobs', () => {
  let s: MessagingSetup;
  let d: OnlineMemberDevice;
  let api: ReturnType<typeof jobsClient>;
  const cleanup = { agents: [] as AgentProcess[], dirs: [] as string[] };
  const db = () => s.tc.database.db;
  /** A device of a new organization of admin@, tagged, with no agent yet. */
  const taggedDevice = async (name: string, tag: string) => {
    const dev = await memberDevice(db(), name);
    await db().update(devices).set({ tags: [tag] }).where(eq(devices.id, dev.id));
    return dev;
  };
  const auditOf = (jobId: string) =>
    db()
      .select()
      .from(auditEntries)
      .where(sql`${auditEntries.details}->>'jobId' = ${jobId}`);

  beforeAll(async () => {
    s = await embeddedSetup({ JOB_CRON_SECONDS: 'true', JOB_TICK_MS: '200' });
    d = await onlineMemberDevice(s, 'jobs first', cleanup);
    api = jobsClient(s.tc, d.admin);
  }, 60_000);

  afterAll(() => tearDown(s, cleanup));

  it('runs on every target: online devices at once, an offline one when its agent starts 20 s later', async () => {
    const tag = `berlin-${randomUUID().slice(0, 6)}`;
    await db().update(devices).set({ tags: [tag] }).where(eq(devices.id, d.device.id));
    const second = await taggedDevice('jobs second', tag);
    await runAgentOnline(s.tc, second, cleanup);
    const late = await taggedDevice('jobs late', tag);

    const live = await openLive(s.tc.url, d.admin);
    const preview = await api.call('/api/jobs/preview', { method: 'POST', json: executeForm('echo hi from $(hostname)', { kind: 'tag', tag }) });
    expect(await preview.json()).toEqual({ devices: 3, nextRuns: [] });

    const job = await api.create(executeForm('echo out; echo err >&2', { kind: 'tag', tag }));
    expect(job).toMatchObject({ targetText: `devices tagged '${tag}'`, state: 'scheduled' });
    await live.next((m) => m.type === 'jobs' && m.ids.includes(job.id));
    await waitFor(async () => (await api.results(job.id, 'succeeded')).length === 2, 15_000, 'the two online devices done');
    const waiting = await api.results(job.id, 'queued');
    expect(waiting.map((r) => r.deviceName)).toEqual(['jobs late']);
    expect((await api.get(job.id)).runs[0]).toMatchObject({ state: 'running', total: 3, counts: { succeeded: 2, queued: 1 } });

    await sleep(20_000);
    await runAgentOnline(s.tc, late, cleanup);
    const done = await api.ended(job.id);
    expect(done.state).toBe('done');
    expect(done.runs[0]).toMatchObject({ state: 'finished', counts: { succeeded: 3, queued: 0, running: 0 } });

    const results = await api.results(job.id);
    expect(results.map((r) => r.deviceName)).toEqual(['jobs first', 'jobs late', 'jobs second']);
    for (const r of results) expect(r).toMatchObject({ state: 'succeeded', exitCode: 0, reason: null });
    const one = await api.call(`/api/jobs/${job.id}/runs/${done.runs[0]!.id}/results/${late.id}`);
    expect(await one.json()).toMatchObject({ stdout: 'out\n', stderr: 'err\n', state: 'succeeded' });

    // The audit trail: created, the run's start and end with its counts, and each device's command.
    const entries = await auditOf(job.id);
    const kinds = entries.map((e) => e.kind).sort();
    expect(kinds).toEqual([AuditKind.Command, AuditKind.Command, AuditKind.Command, AuditKind.JobCreate, AuditKind.JobRunFinish, AuditKind.JobRunStart].sort());
    expect(entries.find((e) => e.kind === AuditKind.JobRunFinish)!.details).toMatchObject({ counts: { succeeded: 3 } });
    expect(entries.find((e) => e.kind === AuditKind.JobCreate)!.details).toMatchObject({ devices: 3, name: 'execute' });
    live.close();

    // CSV: a header and a line per device, output included.
    const csv = await api.call(`/api/jobs/${job.id}/runs/${done.runs[0]!.id}/export`);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('Device,Device id,State,Exit code,Duration (ms),Started,Finished,Reason,Output,Errors');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain('jobs first');
  }, 90_000);

  it('expires what an offline device never took, cancels what has not started', async () => {
    const never = await memberDevice(db(), 'never online');
    const job = await api.create(executeForm('echo never', { kind: 'devices', ids: [never.id, d.device.id] }, { expiryHours: 1 }));
    await waitFor(async () => (await api.results(job.id, 'succeeded')).length === 1, 15_000, 'the online one done');
    // The hour passes: the run's expiry is moved to now, as the clock would.
    await db().update(jobRuns).set({ expiresAt: new Date() }).where(eq(jobRuns.jobId, job.id));
    const done = await api.ended(job.id);
    expect(done.runs[0]!.counts).toMatchObject({ succeeded: 1, expired: 1 });
    expect((await api.results(job.id, 'expired'))[0]).toMatchObject({ deviceName: 'never online', reason: 'The device did not come online before the job expired.' });

    const cancelled = await api.create(executeForm('echo never', { kind: 'devices', ids: [never.id] }));
    await waitFor(async () => (await api.get(cancelled.id)).runs.length === 1, 10_000, 'run started');
    const res = await api.call(`/api/jobs/${cancelled.id}/cancel`, { method: 'POST' });
    expect(res.status).toBe(200);
    const after = await api.ended(cancelled.id);
    expect(after).toMatchObject({ state: 'cancelled', runs: [{ state: 'cancelled', counts: { cancelled: 1 } }] });
    expect((await api.results(cancelled.id))[0]!.reason).toBe('The job was cancelled before it reached the device.');
    expect((await auditOf(cancelled.id)).map((e) => e.kind)).toContain(AuditKind.JobCancel);
  }, 60_000);

  it('repeats on a cron schedule until cancelled, each run listed', async () => {
    const job = await api.create({
      command: { name: 'ping', parameters: [] },
      target: { kind: 'devices', ids: [d.device.id] },
      schedule: { kind: 'cron', expression: '*/2 * * * * *' },
    });
    expect(job.nextRunAt).not.toBeNull();
    const twice = await waitFor(
      async () => {
        const j = await api.get(job.id);
        return j.runs.filter((r) => r.state === 'finished').length >= 2 ? j : undefined;
      },
      15_000,
      'two runs',
    );
    expect(twice.runs[0]!.number).toBeGreaterThan(twice.runs[1]!.number);
    expect(twice.runs.find((r) => r.state === 'finished')!.counts.succeeded).toBe(1);
    const cancelled = await (await api.call(`/api/jobs/${job.id}/cancel`, { method: 'POST' })).json();
    expect(cancelled.nextRunAt).toBeNull();
    const runs = (await api.get(job.id)).runs.length;
    await sleep(3000);
    expect((await api.get(job.id)).runs.length).toBe(runs);
  }, 30_000);

  it('skips a device moved to an organization its creator is not in, saying so', async () => {
    const moving = await memberDevice(db(), 'moving away');
    const job = await api.create(executeForm('echo moved', { kind: 'devices', ids: [moving.id] }));
    await waitFor(async () => (await api.get(job.id)).runs.length === 1, 10_000, 'run started');
    const [elsewhere] = await db().insert(organizations).values({ type: 'COMPANY', name: `elsewhere ${randomUUID().slice(0, 6)}` }).returning();
    await db().update(devices).set({ organizationId: elsewhere!.id }).where(eq(devices.id, moving.id));
    await runAgentOnline(s.tc, moving, cleanup);
    const done = await api.ended(job.id);
    expect(done.runs[0]!.counts.skipped).toBe(1);
    expect((await api.results(job.id))[0]).toMatchObject({ state: 'skipped', reason: "The device moved to an organization the job's creator is not a member of." });
  }, 30_000);

  it('runs the failed ones again as a new job', async () => {
    const job = await api.create(executeForm('exit 3', { kind: 'devices', ids: [d.device.id] }));
    const done = await api.ended(job.id);
    expect((await api.results(job.id))[0]).toMatchObject({ state: 'failed', exitCode: 3, reason: 'It exited with code 3.' });
    // A finished job has nothing left to cancel.
    const late = await api.call(`/api/jobs/${job.id}/cancel`, { method: 'POST' });
    expect(late.status).toBe(409);
    expect((await late.json()).message).toBe('This job has finished: there is nothing left to cancel.');
    const again = await api.call(`/api/jobs/${job.id}/runs/${done.runs[0]!.id}/rerun-failed`, { method: 'POST' });
    expect(again.status).toBe(201);
    const rerun = await again.json();
    expect(rerun).toMatchObject({ rerunOf: job.id, target: { kind: 'devices', ids: [d.device.id] }, targetText: '1 picked device' });
    expect((await api.ended(rerun.id)).runs[0]!.counts.failed).toBe(1);

    const fine = await api.create(executeForm('true', { kind: 'devices', ids: [d.device.id] }));
    const none = await api.call(`/api/jobs/${fine.id}/runs/${(await api.ended(fine.id)).runs[0]!.id}/rerun-failed`, { method: 'POST' });
    expect(none.status).toBe(400);
    expect((await none.json()).message).toBe('No device failed in this run: there is nothing to run again.');
  }, 30_000);

  it('refuses bad input with 400 naming the field, and creates nothing', async () => {
    const target: JobTarget = { kind: 'devices', ids: [d.device.id] };
    const cases: [object, string, RegExp][] = [
      [executeForm('ls', target, { schedule: { kind: 'cron', expression: '61 * * * *' } }), 'schedule.expression', /^Cron expression is not valid/],
      [executeForm('ls', target, { schedule: { kind: 'cron', expression: 'every day' } }), 'schedule.expression', /^Cron expression must have five fields/],
      [executeForm('ls', target, { expiryHours: 721 }), 'expiryHours', /^Expiry must be at most 720 hours \(30 days\)\.$/],
      [executeForm('ls', { kind: 'search', search: 'no-such-device-anywhere' }), 'target', /^The target matches no device you can reach\.$/],
      [{ command: { name: 'reboot-now', parameters: [] }, target }, 'command.name', /^Command must be one the agent knows: execute, ping, restart, update\.$/],
      [{ command: { name: 'execute', parameters: [{ name: 'cmd', value: 'ls' }] }, target }, 'command.parameters', /needs the parameter 'command'/],
      [executeForm('ls', target, { schedule: { kind: 'once', at: '2020-01-01T00:00:00Z' } }), 'schedule.at', /^Start time must be in the future\.$/],
      [executeForm('ls', { kind: 'devices', ids: ['nope'] }), 'target.ids.0', /^Each device must be an id\.$/],
    ];
    // A cursor that no page gave.
    const mine = await api.create(executeForm('true', target));
    const run = (await api.ended(mine.id)).runs[0]!;
    const cursor = await api.call(`/api/jobs/${mine.id}/runs/${run.id}/results?after=xyz`);
    expect(cursor.status).toBe(400);
    expect((await cursor.json()).message).toBe('The page cursor is not one this list gave: start from the first page.');
    const before = (await db().select({ id: jobs.id }).from(jobs)).length;
    for (const [body, field, message] of cases) {
      for (const path of ['/api/jobs', '/api/jobs/preview']) {
        const res = await api.call(path, { method: 'POST', json: body });
        const json = await res.json();
        expect(res.status, `${path} ${field}: ${JSON.stringify(json)}`).toBe(400);
        expect(json.fields?.[field], JSON.stringify(json)).toMatch(message);
      }
    }
    expect((await db().select({ id: jobs.id }).from(jobs)).length).toBe(before);

    // A USER may not; another person's job is not found.
    const asUser = await s.tc.api('/api/jobs', { method: 'POST', token: d.user, json: executeForm('ls', target) });
    expect(asUser.status).toBe(403);
    // Another person's job reads as one that does not exist.
    const theirs = randomUUID();
    await db().insert(jobs).values({
      id: theirs,
      createdBy: 'someone@else.example',
      commandName: 'ping',
      parameters: [],
      target: target,
      targetText: '1 picked device',
      expiryHours: 24,
      leaseSeconds: 60,
      schedule: { kind: 'now' },
    });
    for (const path of [`/api/jobs/${theirs}`, `/api/jobs/${theirs}/cancel`]) {
      const res = await api.call(path, { method: path.endsWith('cancel') ? 'POST' : 'GET' });
      expect(res.status).toBe(404);
      expect((await res.json()).message).toBe('Job not found.');
    }
    await db().delete(jobs).where(eq(jobs.id, theirs));
  });

  it('settles a claim whose console died: failed with the reason, and the run ends', async () => {
    const offline = await memberDevice(db(), 'claimed by a dead console');
    const job = await api.create(executeForm('echo lapsed', { kind: 'devices', ids: [offline.id] }));
    await waitFor(async () => (await api.get(job.id)).runs.length === 1, 10_000, 'run started');
    // As a console that claimed it, sent it and died: running, its lease over, no answer ever written.
    await db().execute(sql`update job_results set state = 'running', claimed_by = 'gone', lease_until = now() - interval '1 second'
      where run_id in (select id from job_runs where job_id = ${job.id})`);
    const done = await api.ended(job.id);
    expect(done.runs[0]).toMatchObject({ state: 'finished', counts: { failed: 1 } });
    expect((await api.results(job.id))[0]!.reason).toBe('The console sending it stopped before the device answered: it may or may not have run.');
  });
});
