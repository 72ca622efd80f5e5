import { AgentProperty, AuditKind, releaseListSchema } from '@fleetlink/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, devices, rolloutDevices } from '../../db/schema/index.js';
import { ADMIN_EMAIL, createDevice, embeddedSetup, tearDown, waitFor, type MessagingSetup } from '../broker/broker.test-support.js';
import { manifest, tarGz } from './bundle-archives.test-support.js';
import { deviceHash } from './rollout-waves.js';

/**
 * Issue 65: how the runner judges a wave from what agents report, with no agents running: the
 * properties an agent would publish are written as it would, so each rule is met on purpose (a
 * failure reported, an update that never came back within the deadline, the count threshold, and
 * a rollout that ends done). The installed agents' own reports are in rollouts.test.ts.
 */
describe('the rollout runner', () => {
  let s: MessagingSetup;
  let ids: string[] = [];
  const names = new Map<string, string>();

  const call = async (method: string, path: string, json?: unknown) => s.tc.call(ADMIN_EMAIL, method, path, json);
  const rollout = async (version: string) =>
    releaseListSchema.parse((await call('GET', '/api/releases')).body).find((r) => r.branch === 'ACCEPTANCE' && r.version === version)?.rollout;
  const report = (id: string, props: Record<string, string>) => s.tc.database.db.update(devices).set({ properties: props }).where(eq(devices.id, id));
  const release = async (version: string, rolloutForm: unknown) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(tarGz([manifest('fleetlink-agent', version), { path: 'cli.mjs', body: 'export {}' }]))]), 'bundle.tar.gz');
    expect((await s.tc.api('/api/bundle', { method: 'POST', token: await s.tc.token(ADMIN_EMAIL), body: form })).status).toBe(201);
    const made = await call('POST', '/api/release', { branch: 'ACCEPTANCE', version, bundles: [{ name: 'fleetlink-agent', version }], rollout: rolloutForm });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
  };

  beforeAll(async () => {
    s = await embeddedSetup({ ROLLOUT_TICK_MS: '100', ROLLOUT_UPDATE_DEADLINE_MINUTES: '0.05' });
    for (let i = 0; i < 10; i++) {
      const dev = await createDevice(s.tc.database.db, `box ${i}`);
      names.set(dev.id, `box ${i}`);
      ids.push(dev.id);
    }
    await s.tc.database.db.update(devices).set({ branch: 'ACCEPTANCE' }).where(inArray(devices.id, ids));
    ids = ids.sort((a, b) => deviceHash(a) - deviceHash(b));
  }, 60_000);
  afterAll(async () => tearDown(s, { agents: [], dirs: [] }));

  it('counts a reported failure and an update not back within the deadline, and halts at the failure count', async () => {
    await release('5.0.0', { mode: 'waves', waves: [{ unit: 'percent', amount: 50 }, { unit: 'percent', amount: 100 }], waitMinutes: 10, failurePercent: 100, failureCount: 2 });
    const [took, refused, stuck] = ids;
    await report(took!, { [AgentProperty.BundleVersion]: '5.0.0', [AgentProperty.UpdateStatus]: 'CURRENT' });
    await report(refused!, { [AgentProperty.BundleVersion]: '4.0.0', [AgentProperty.UpdateBundleVersion]: '5.0.0', [AgentProperty.UpdateStatus]: 'FAILED', [AgentProperty.UpdateError]: 'refused: not the bytes released' });
    // A device of wave 2 that reports a failure counts nowhere: its wave has not started.
    await report(ids[9]!, { [AgentProperty.UpdateBundleVersion]: '5.0.0', [AgentProperty.UpdateStatus]: 'FAILED' });
    const one = await waitFor(async () => {
      const r = await rollout('5.0.0');
      return r?.waves[0]!.standing.failed === 1 && r;
    }, 10_000, 'one failure counted');
    expect(one.state).toBe('RUNNING');
    expect(one.waves.map((w) => [w.devices, w.standing])).toEqual([
      [5, { running: 1, updating: 0, failed: 1, waiting: 3 }],
      [5, { running: 0, updating: 0, failed: 0, waiting: 5 }],
    ]);

    // Offered, started updating, and silent since: updating until the deadline, then failed, and the count halts it.
    const release500 = await s.tc.database.db.query.releases.findFirst({ where: (r, { eq }) => and(eq(r.branch, 'ACCEPTANCE'), eq(r.version, '5.0.0')) });
    await s.tc.database.db
      .update(rolloutDevices)
      .set({ offeredAt: sql`now()` })
      .where(and(eq(rolloutDevices.releaseId, release500!.id), eq(rolloutDevices.deviceId, stuck!)));
    await report(stuck!, { [AgentProperty.BundleVersion]: '4.0.0', [AgentProperty.UpdateBundleVersion]: '5.0.0', [AgentProperty.UpdateStatus]: 'UPDATING' });
    await waitFor(async () => (await rollout('5.0.0'))?.waves[0]!.standing.updating === 1, 5000, 'updating counted');
    const halted = await waitFor(async () => {
      const r = await rollout('5.0.0');
      return r?.state === 'HALTED' && r;
    }, 15_000, 'halted');
    expect(halted.reason).toBe(`Halted: 2 of 5 devices in wave 1 failed: ${names.get(refused!)}: refused: not the bytes released`);
    const wave1 = (await call('GET', '/api/release/ACCEPTANCE/5.0.0/rollout/wave/1')).body;
    expect(wave1.devices.find((d: { id: string }) => d.id === stuck)).toMatchObject({ state: 'failed', reason: 'not back online within 0.05 minutes' });
    // Kept failed, whatever the agent says later, until it runs the release.
    await report(stuck!, { [AgentProperty.BundleVersion]: '4.0.0', [AgentProperty.UpdateStatus]: 'CURRENT' });
    expect((await call('POST', '/api/release/ACCEPTANCE/5.0.0/rollout/resume')).status).toBe(204);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await rollout('5.0.0')).toMatchObject({ state: 'RUNNING', waves: [{ standing: { failed: 2 } }, { standing: { waiting: 5 } }] });
    expect((await call('POST', '/api/release/ACCEPTANCE/5.0.0/rollout/abort')).status).toBe(204);
  }, 60_000);

  it('starts each wave once its wait passed and ends done, every device then offered the release', async () => {
    await release('5.1.0', { mode: 'waves', waves: [{ unit: 'devices', amount: 1 }, { unit: 'percent', amount: 100 }], waitMinutes: 0.01, failurePercent: 5, failureCount: 2 });
    const done = await waitFor(async () => {
      const r = await rollout('5.1.0');
      return r?.state === 'DONE' && r;
    }, 15_000, 'done');
    expect(done).toMatchObject({ wave: 2, nextWaveAt: null });
    expect(done.waves.map((w) => w.devices)).toEqual([1, 9]);
    const starts = await s.tc.database.db
      .select({ details: auditEntries.details })
      .from(auditEntries)
      .where(and(eq(auditEntries.kind, AuditKind.RolloutWave), sql`${auditEntries.details}->>'version' = '5.1.0'`));
    expect(starts.map((e) => e.details)).toEqual([{ branch: 'ACCEPTANCE', version: '5.1.0', wave: 2, devices: 9 }]);
  }, 30_000);
});
