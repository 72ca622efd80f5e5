import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import path from 'node:path';
import { AgentProperty } from '@fleetlink/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundles, devices } from '../../db/schema/index.js';
import { ADMIN_EMAIL, embeddedSetup, memberDevice, tearDown, tempDir, type AgentProcess, type MessagingSetup } from '../broker/broker.test-support.js';
import { FsBlobStore } from '../transfers/blobs/fs-blob-store.js';
import { manifest, packAgentBundle, tarGz } from './bundle-archives.test-support.js';
import { brokenBundle, releaseClient } from './release-client.test-support.js';
import { installBundle, runInstalled } from './installed-agent.test-support.js';

const DEADLINE_SECONDS = 8;

/**
 * Issue 32: installed agents (the shell launcher plus bundles of this checkout's agent) update
 * themselves to their branch's release, against the real console and broker, and roll back by themselves.
 */
describe('self-update by branch, with rollback', () => {
  let s: MessagingSetup;
  let admin: string;
  const cleanup = { agents: [] as AgentProcess[], dirs: [] as string[] };
  const files: Record<string, string> = {};
  let stable: { id: string; key: string; home: string };
  let eager: { id: string; key: string; home: string };

  let c: ReturnType<typeof releaseClient>;
  const { upload, release, update, reports, standing } = {
    upload: (body: Buffer) => c.upload(body),
    release: (branch: string, version: string, bundle = version) => c.release(branch, version, { bundle }),
    update: (deviceId: string) => c.command(deviceId, 'update'),
    reports: (deviceId: string, expected: Record<string, string>, ms?: number) => c.reports(deviceId, expected, ms),
    standing: (branch: string, version: string) => c.standing(branch, version),
  };

  beforeAll(async () => {
    s = await embeddedSetup();
    admin = await s.tc.token(ADMIN_EMAIL);
    c = releaseClient(s, admin);
    const out = tempDir('fleetlink-self-update-');
    cleanup.dirs.push(out);
    for (const v of ['1.0.0', '1.1.0', '1.3.0-rc.1']) files[v] = packAgentBundle(v, out);
    for (const v of ['1.0.0', '1.1.0', '1.3.0-rc.1']) await upload(readFileSync(files[v]!));
    await release('PRODUCTION', '1.0.0');
    const install = async (name: string, branch: 'PRODUCTION' | 'ACCEPTANCE') => {
      const dev = await memberDevice(s.tc.database.db, name);
      await s.tc.database.db.update(devices).set({ branch }).where(eq(devices.id, dev.id));
      const home = tempDir('fleetlink-installed-');
      cleanup.dirs.push(home);
      await installBundle(home, files['1.0.0']!, '1.0.0');
      cleanup.agents.push(runInstalled(home, { server: s.tc.url, device: dev.id, key: dev.key, env: { FLEETLINK_UPDATE_DEADLINE_SECONDS: String(DEADLINE_SECONDS) } }));
      return { ...dev, home };
    };
    [stable, eager] = await Promise.all([install('stable', 'PRODUCTION'), install('eager', 'ACCEPTANCE')]);
  }, 180_000);
  afterAll(async () => tearDown(s, cleanup));

  it('reports its bundle, its launcher and its release before an update', async () => {
    const p = await reports(stable.id, { [AgentProperty.BundleVersion]: '1.0.0', [AgentProperty.UpdateStatus]: 'CURRENT' });
    expect(p[AgentProperty.LauncherVersion]).toBe('1.0.0');
    expect(p[AgentProperty.UpdateBundleVersion]).toBe('1.0.0');
    expect((await update(stable.id)).body.stdout).toMatch(/runs fleetlink-agent 1.0.0, the bundle of release PRODUCTION 1.0.0: nothing to update/);
    await reports(eager.id, { [AgentProperty.BundleVersion]: '1.0.0', [AgentProperty.UpdateStatus]: 'CURRENT' });
    expect(await standing('PRODUCTION', '1.0.0')).toEqual({ running: 2, updating: 0, failed: 0, waiting: 0 });
  });

  it('updates a PRODUCTION agent to a bumped bundle; an ACCEPTANCE one takes the acceptance release (README rule)', async () => {
    await release('PRODUCTION', '1.1.0');
    await release('ACCEPTANCE', '1.3.0-rc.1');
    expect(await standing('PRODUCTION', '1.1.0')).toMatchObject({ running: 0, waiting: 1 });
    const answer = await update(stable.id);
    expect(answer.status).toBe(200);
    expect(answer.body.stdout).toMatch(/^Updating from 1.0.0 to 1.1.0 \(release PRODUCTION 1.1.0\)/);
    const p = await reports(stable.id, { [AgentProperty.BundleVersion]: '1.1.0', [AgentProperty.UpdateStatus]: 'CURRENT' });
    expect(p[AgentProperty.UpdateBundleVersion]).toBe('1.1.0');
    expect(readFileSync(path.join(stable.home, 'current'), 'utf8').trim()).toBe('1.1.0');
    expect(readFileSync(path.join(stable.home, 'previous'), 'utf8').trim()).toBe('1.0.0');
    expect(existsSync(path.join(stable.home, 'trial'))).toBe(false);
    expect(readdirSync(path.join(stable.home, 'bundles')).sort()).toEqual(['1.0.0', '1.1.0']);
    // The early-access device, asked by nobody, finds its release at its next check (a restart here).
    expect((await s.tc.api(`/api/device/${eager.id}/command`, { method: 'POST', token: admin, json: { name: 'restart', parameters: [] } })).status).toBe(200);
    await reports(eager.id, { [AgentProperty.BundleVersion]: '1.3.0-rc.1', [AgentProperty.UpdateStatus]: 'CURRENT' });
    expect(await standing('PRODUCTION', '1.1.0')).toMatchObject({ running: 1, waiting: 0 });
    expect(await standing('ACCEPTANCE', '1.3.0-rc.1')).toMatchObject({ running: 1 });
  }, 120_000);

  it('rolls back by itself from a bundle that ends before it comes online, and reports it', async () => {
    await upload(brokenBundle('1.2.0', 'process.exit(3);\n'));
    await release('PRODUCTION', '1.2.0');
    expect((await update(stable.id)).body.stdout).toMatch(/^Updating from 1.1.0 to 1.2.0/);
    const p = await reports(stable.id, { [AgentProperty.BundleVersion]: '1.1.0', [AgentProperty.UpdateStatus]: 'FAILED', [AgentProperty.UpdateBundleVersion]: '1.2.0' });
    expect(p[AgentProperty.UpdateError]).toBe('rolled back: ended with code 3 before it came online');
    expect(readFileSync(path.join(stable.home, 'current'), 'utf8').trim()).toBe('1.1.0');
    expect(await standing('PRODUCTION', '1.2.0')).toEqual({ running: 0, updating: 0, failed: 1, waiting: 0 });
    expect(await standing('PRODUCTION', '1.1.0')).toMatchObject({ running: 1 });
  }, 120_000);

  it('rolls back from a bundle that does not come online within the deadline', async () => {
    await upload(brokenBundle('1.2.1', 'setInterval(() => {}, 1000);\n'));
    await release('PRODUCTION', '1.2.1');
    expect((await update(stable.id)).body.stdout).toMatch(/^Updating from 1.1.0 to 1.2.1/);
    const p = await reports(stable.id, { [AgentProperty.UpdateStatus]: 'FAILED', [AgentProperty.UpdateBundleVersion]: '1.2.1' }, 60_000);
    expect(p[AgentProperty.UpdateError]).toBe(`rolled back: did not come online within ${DEADLINE_SECONDS} s`);
    expect(p[AgentProperty.BundleVersion]).toBe('1.1.0');
  }, 120_000);

  it('refuses a bundle whose SHA-256 is not the one released', async () => {
    await upload(readFileSync(packAgentBundle('1.4.0', cleanup.dirs[0]!)));
    await release('PRODUCTION', '1.4.0');
    // What a store or a network that changed the bytes would look like to the agent.
    await s.tc.database.db.update(bundles).set({ sha256: '0'.repeat(64) }).where(eq(bundles.version, '1.4.0'));
    const answer = await update(stable.id);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toMatch(/The downloaded bundle 1.4.0 is not the one released: its SHA-256 is [0-9a-f]{64}, the release says 0{64}\./);
    const p = await reports(stable.id, { [AgentProperty.UpdateStatus]: 'FAILED', [AgentProperty.UpdateBundleVersion]: '1.4.0' });
    expect(p[AgentProperty.BundleVersion]).toBe('1.1.0');
    expect(readdirSync(path.join(stable.home, 'bundles'))).not.toContain('1.4.0');
  }, 120_000);

  it('refuses an archive with an entry that escapes its folder (one put into the store past the upload check)', async () => {
    const body = tarGz([manifest('fleetlink-agent', '1.5.0'), { path: 'dist/cli.mjs', body: '' }, { path: '../../escaped.txt', body: 'x' }]);
    const id = randomUUID();
    await (await FsBlobStore.open(path.join(s.tc.dataDir, 'bundles'))).write(id, Readable.from([body]), body.length);
    await s.tc.database.db.insert(bundles).values({ id, name: 'fleetlink-agent', version: '1.5.0', sha256: createHash('sha256').update(body).digest('hex'), size: body.length });
    await release('PRODUCTION', '1.5.0');
    const answer = await update(stable.id);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe('The bundle fleetlink-agent 1.5.0 was refused: it holds ../../escaped.txt (outside its folder).');
    await reports(stable.id, { [AgentProperty.UpdateStatus]: 'FAILED', [AgentProperty.UpdateBundleVersion]: '1.5.0' });
    expect(existsSync(path.join(stable.home, '..', 'escaped.txt'))).toBe(false);
    // The rollbacks before took the failed bundles away, and with them the way back to 1.0.0.
    expect(readdirSync(path.join(stable.home, 'bundles'))).toEqual(['1.1.0']);
  }, 60_000);

  it('downloads only bundles of its own releases, with its own account', async () => {
    const account = JSON.parse(readFileSync(path.join(stable.home, 'data', 'agent.json'), 'utf8')).mqtt;
    const get = (p: string, auth?: string) => s.tc.api(p, { headers: auth ? { authorization: `Basic ${Buffer.from(auth).toString('base64')}` } : {} });
    expect((await get('/api/agent/bundle/fleetlink-agent/1.1.0', `${account.username}:${account.password}`)).status).toBe(200);
    // 1.3.0-rc.1 is an ACCEPTANCE release: not for a stable device.
    expect((await get('/api/agent/bundle/fleetlink-agent/1.3.0-rc.1', `${account.username}:${account.password}`)).status).toBe(404);
    expect((await get('/api/agent/bundle/fleetlink-agent/1.1.0', `${account.username}:wrong`)).status).toBe(401);
    expect((await get('/api/agent/bundle/fleetlink-agent/1.1.0')).status).toBe(401);
  });
});
