import { readFileSync } from 'node:fs';
import { AgentProperty, AuditKind, rolloutFormDefaults, type RolloutForm } from '@fleetlink/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, rolloutDevices } from '../../db/schema/index.js';
import { ADMIN_EMAIL, embeddedSetup, memberDevice, tearDown, tempDir, waitFor, type AgentProcess, type MessagingSetup } from '../broker/broker.test-support.js';
import { packAgentBundle } from './bundle-archives.test-support.js';
import { installBundle, runInstalled } from './installed-agent.test-support.js';
import { brokenBundle, releaseClient } from './release-client.test-support.js';
import { deviceHash } from './rollout-waves.js';

const waves = (...shares: (number | `${number}%`)[]): RolloutForm['waves'] =>
  shares.map((s) => (typeof s === 'number' ? { unit: 'devices', amount: s } : { unit: 'percent', amount: Number(s.slice(0, -1)) }));
const inWaves = (o: Partial<RolloutForm>): RolloutForm => ({ ...rolloutFormDefaults, mode: 'waves', ...o });

/**
 * Issue 65: staged rollouts against five installed agents (the shell launcher and bundles of this
 * checkout's agent), the real console and its broker. The canary of a bad release rolls back and the
 * rollout halts before anyone else downloads it; a good one reaches the fleet wave by wave, across a
 * console restart.
 */
describe('staged rollouts with installed agents', () => {
  let s: MessagingSetup;
  let c: ReturnType<typeof releaseClient>;
  const cleanup = { agents: [] as AgentProcess[], dirs: [] as string[] };
  let fleet: { id: string; name: string }[] = [];

  const call = async (method: string, path: string, json?: unknown) => {
    const res = await s.tc.api(path, { method, token: await s.tc.token(ADMIN_EMAIL), json });
    return { status: res.status, body: res.status === 204 ? undefined : await res.json() };
  };
  const rolloutOf = async (version: string) => (await c.find('PRODUCTION', version))?.rollout;
  const rolloutIs = (version: string, state: string, ms = 60_000) =>
    waitFor(async () => {
      const r = await rolloutOf(version);
      return r?.state === state && r;
    }, ms, `the rollout of ${version} to be ${state}`);
  const rows = async (version: string) => {
    const release = (await s.tc.database.db.query.releases.findFirst({ where: (r, { eq }) => and(eq(r.branch, 'PRODUCTION'), eq(r.version, version)) }))!;
    return s.tc.database.db.select().from(rolloutDevices).where(eq(rolloutDevices.releaseId, release.id));
  };
  const runs = (version: string, ms = 90_000) =>
    Promise.all(fleet.map((d) => c.reports(d.id, { [AgentProperty.BundleVersion]: version, [AgentProperty.UpdateStatus]: 'CURRENT' }, ms)));

  beforeAll(async () => {
    s = await embeddedSetup({ ROLLOUT_TICK_MS: '300', ROLLOUT_UPDATE_DEADLINE_MINUTES: '2' });
    c = releaseClient(s, await s.tc.token(ADMIN_EMAIL));
    const out = tempDir('fleetlink-rollouts-');
    cleanup.dirs.push(out);
    const files = Object.fromEntries(['1.0.0', '1.1.0'].map((v) => [v, packAgentBundle(v, out)]));
    for (const v of ['1.0.0', '1.1.0']) await c.upload(readFileSync(files[v]!));
    await c.upload(brokenBundle('1.0.1', 'process.exit(3);\n'));
    await c.release('PRODUCTION', '1.0.0');
    fleet = await Promise.all(
      ['d1', 'd2', 'd3', 'd4', 'd5'].map(async (name) => {
        const dev = await memberDevice(s.tc.database.db, name);
        const home = tempDir('fleetlink-installed-');
        cleanup.dirs.push(home);
        await installBundle(home, files['1.0.0']!, '1.0.0');
        cleanup.agents.push(runInstalled(home, { server: s.tc.url, device: dev.id, key: dev.key, env: { FLEETLINK_UPDATE_DEADLINE_SECONDS: '20' } }));
        return { id: dev.id, name };
      }),
    );
    // Wave order is hash order: the first is the canary.
    fleet.sort((a, b) => deviceHash(a.id) - deviceHash(b.id));
    await runs('1.0.0');
  }, 240_000);
  afterAll(async () => tearDown(s, cleanup));

  it('halts when the canary rolls back: the other four never download the bundle', async () => {
    await c.release('PRODUCTION', '1.0.1', { rollout: inWaves({ waves: waves(1, '100%'), waitMinutes: 2 }) });
    const [canary, ...rest] = fleet;
    const halted = await rolloutIs('1.0.1', 'HALTED', 90_000);
    expect(halted.reason).toBe(`Halted: 1 of 1 devices in wave 1 rolled back: ${canary!.name}: ended with code 3 before it came online`);
    expect(halted.waves.map((w) => [w.devices, w.standing.failed])).toEqual([
      [1, 1],
      [4, 0],
    ]);
    const p = await c.reports(canary!.id, { [AgentProperty.UpdateStatus]: 'FAILED', [AgentProperty.UpdateBundleVersion]: '1.0.1' });
    expect(p[AgentProperty.BundleVersion]).toBe('1.0.0');
    // The download log: the canary alone took the bundle.
    expect((await rows('1.0.1')).filter((r) => r.downloadedAt).map((r) => r.deviceId)).toEqual([canary!.id]);
    for (const d of rest) expect((await c.props(d.id))[AgentProperty.UpdateBundleVersion]).toBe('1.0.0');
    // Asked now, the others are still answered 1.0.0, and refused the bundle of 1.0.1.
    // Each says which wave it waits for.
    for (const d of rest) {
      expect((await c.command(d.id, 'update')).body.stdout).toMatch(
        /runs fleetlink-agent 1.0.0, the bundle of release PRODUCTION 1.0.0: nothing to update. Release PRODUCTION 1.0.1 reaches this device in wave 2 \(its rollout is halted\): waiting for wave 2.\n$/,
      );
    }
    const wave2 = await call('GET', '/api/release/PRODUCTION/1.0.1/rollout/wave/2');
    expect(wave2.body.total).toBe(4);
    expect(wave2.body.devices.map((d: { name: string; reason: string }) => `${d.name} ${d.reason}`).sort()).toEqual(rest.map((d) => `${d.name} waiting for wave 2`).sort());
    const [halt] = await s.tc.database.db.select().from(auditEntries).where(eq(auditEntries.kind, AuditKind.RolloutHalt));
    expect(halt?.error).toBe(halted.reason);
  }, 150_000);

  it('resumes after a halt, pauses, aborts (the canary keeps what it runs), and refuses what a state does not allow', async () => {
    expect(await call('POST', '/api/release/PRODUCTION/1.0.1/rollout/pause')).toMatchObject({ status: 409, body: { message: 'Only a running rollout can be paused; the rollout of PRODUCTION 1.0.1: it is halted.' } });
    expect((await call('POST', '/api/release/PRODUCTION/1.0.1/rollout/resume')).status).toBe(204);
    // The failure that halted it was accepted: it does not halt again by itself.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await rolloutOf('1.0.1'))?.state).toBe('RUNNING');
    expect((await call('POST', '/api/release/PRODUCTION/1.0.1/rollout/pause')).status).toBe(204);
    expect(await rolloutOf('1.0.1')).toMatchObject({ state: 'PAUSED', reason: `Paused by ${ADMIN_EMAIL}.`, nextWaveAt: null });
    expect((await call('POST', '/api/release/PRODUCTION/1.0.1/rollout/abort')).status).toBe(204);
    expect((await rolloutOf('1.0.1'))?.state).toBe('ABORTED');
    expect(await call('POST', '/api/release/PRODUCTION/1.0.1/rollout/resume')).toMatchObject({ status: 409 });
    expect(await call('POST', '/api/release/PRODUCTION/1.0.1/rollout/jump')).toMatchObject({ status: 400 });
    // Bad input gets the form's messages from the console too.
    const bad = await call('PUT', '/api/release/PRODUCTION/1.0.1/rollout', { ...inWaves({ waves: waves(1, '50%'), waitMinutes: 20_000, failurePercent: 150 }) });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({
      'waves.1.amount': 'The last wave must be 100 %: every device of the release is in a wave.',
      waitMinutes: 'The wait is at most 10080 minutes (7 days).',
      failurePercent: 'The failure threshold is between 0 and 100 %.',
    });
    expect(await call('POST', '/api/release/PRODUCTION/9.9.9/rollout/pause')).toMatchObject({ status: 404, body: { message: 'There is no release PRODUCTION 9.9.9.' } });
    // Nobody took 1.0.1, so every device is answered 1.0.0, which they run.
    for (const d of fleet) expect((await c.command(d.id, 'update')).body.stdout).toMatch(/nothing to update/);
    const kinds = (await s.tc.database.db.select({ kind: auditEntries.kind }).from(auditEntries)).map((e) => e.kind);
    for (const kind of [AuditKind.RolloutSet, AuditKind.RolloutResume, AuditKind.RolloutPause, AuditKind.RolloutAbort]) expect(kinds).toContain(kind);
  }, 60_000);

  it('takes a good release to all five in wave order, across a console restart mid-wait; then rolls it back', async () => {
    await c.release('PRODUCTION', '1.1.0', { rollout: inWaves({ waves: waves(1, 2, '100%'), waitMinutes: 0.25 }) });
    const [canary] = fleet;
    await c.reports(canary!.id, { [AgentProperty.BundleVersion]: '1.1.0', [AgentProperty.UpdateStatus]: 'CURRENT' }, 60_000);
    const first = await rolloutOf('1.1.0');
    expect(first).toMatchObject({ state: 'RUNNING', wave: 1 });
    expect(first!.waves.map((w) => w.devices)).toEqual([1, 1, 3]);
    // The console stops while wave 1 waits, and goes on from the database once back.
    await s.tc.restart();
    c = releaseClient(s, await s.tc.token(ADMIN_EMAIL));
    await runs('1.1.0', 120_000);
    const done = await rolloutIs('1.1.0', 'DONE', 60_000);
    expect(done.waves.map((w) => w.standing)).toEqual([
      { running: 1, updating: 0, failed: 0, waiting: 0 },
      { running: 1, updating: 0, failed: 0, waiting: 0 },
      { running: 3, updating: 0, failed: 0, waiting: 0 },
    ]);
    // Wave order: no device was offered it before a device of an earlier wave.
    const offered = (await rows('1.1.0')).sort((a, b) => a.wave - b.wave);
    for (let i = 1; i < offered.length; i++) if (offered[i]!.wave > offered[i - 1]!.wave) expect(offered[i]!.offeredAt!.getTime()).toBeGreaterThanOrEqual(offered[i - 1]!.offeredAt!.getTime());
    expect(offered.every((r) => r.downloadedAt)).toBe(true);
    const waveStarts = (await s.tc.database.db.select().from(auditEntries).where(eq(auditEntries.kind, AuditKind.RolloutWave))).map((e) => (e.details as { wave: number }).wave);
    expect(waveStarts.sort()).toEqual([2, 3]);

    // Roll back: devices that took it are offered the release before it again.
    expect((await call('POST', '/api/release/PRODUCTION/1.1.0/rollout/rollback')).status).toBe(204);
    await runs('1.0.0', 120_000);
    expect(await call('POST', '/api/release/PRODUCTION/1.1.0/rollout/rollback')).toMatchObject({ status: 409, body: { message: 'PRODUCTION 1.1.0 is rolled back already.' } });
  }, 300_000);
});
