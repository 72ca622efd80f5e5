import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobResults } from '../../db/schema/index.js';
import { embeddedSetup, onlineMemberDevice, tearDown, waitFor, type AgentProcess, type MessagingSetup, type OnlineMemberDevice } from '../broker/broker.test-support.js';
import { executeForm, jobsClient } from './jobs.test-support.js';

/**
 * Issue 67: a job asked while the device's message server is away (a broker restart) does not fail
 * its devices for a command that never left the console: their results wait, queued, and the run
 * completes once the broker is back, each device's command sent once.
 */
describe('a job while the broker is away', () => {
  let s: MessagingSetup;
  let d: OnlineMemberDevice;
  const cleanup = { agents: [] as AgentProcess[], dirs: [] as string[] };
  beforeAll(async () => {
    s = await embeddedSetup({ JOB_TICK_MS: '200' });
    d = await onlineMemberDevice(s, 'waits for its broker', cleanup);
  }, 60_000);
  afterAll(async () => tearDown(s, cleanup));

  it('keeps the device queued, not failed, and runs it once when the broker is back', async () => {
    const api = jobsClient(s.tc, d.admin);
    const broker = s.tc.messaging!.broker!;
    await broker.stop();
    // The device is still online in the console's view: its last will went with the broker.
    const job = await api.create(executeForm('echo ran', { kind: 'devices', ids: [d.device.id] }));
    // Claimed, found unsendable, queued again (not before 10 s): never failed.
    await waitFor(async () => (await s.tc.database.db.select().from(jobResults)).some((r) => r.state === 'queued' && r.leaseUntil !== null), 10_000, 'the result queued again');
    expect((await api.get(job.id)).runs[0]!.counts).toMatchObject({ queued: 1, failed: 0 });
    await broker.start();
    const ended = await api.ended(job.id, 60_000);
    expect(ended.runs[0]!.counts).toMatchObject({ succeeded: 1, failed: 0, queued: 0 });
    const rows = await s.tc.database.db.select().from(jobResults);
    expect(rows.map((r) => [r.state, r.exitCode, r.stdout])).toEqual([['succeeded', 0, 'ran\n']]);
  }, 90_000);
});
