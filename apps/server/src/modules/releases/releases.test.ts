import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { agentReleaseSchema, bundleSchema, releaseListSchema } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../testing/expect-error.js';
import {
  ADMIN_EMAIL,
  AGENT_NODE,
  embeddedSetup,
  enrollByHand,
  GUEST_EMAIL,
  memberDevice,
  runAgentOnline,
  tearDown,
  tempDir,
  USER_EMAIL,
  type AgentProcess,
  type MessagingSetup,
} from '../broker/broker.test-support.js';
import { devices } from '../../db/schema/index.js';
import { eq } from 'drizzle-orm';
import { fileURLToPath } from 'node:url';
import { startS3, type S3Server } from '../transfers/s3.test-support.js';
import { manifest, packAgentBundle, tarGz, type ArchiveEntry } from './bundle-archives.test-support.js';

const execFileAsync = promisify(execFile);

/**
 * Issue 31: agent bundles and releases, against the real console (PGlite or TEST_DATABASE_URL),
 * with bundles of this checkout's own agent packed by `npm run build:bundle`'s script.
 */
describe('agent bundles and releases', () => {
  let s: MessagingSetup;
  let admin: string;
  const cleanup = { agents: [] as AgentProcess[], dirs: [] as string[] };
  const bundleFiles: Record<string, string> = {};

  const upload = (body: Buffer, name = 'bundle.tar.gz', token = admin) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(body)]), name);
    return s.tc.api('/api/bundle', { method: 'POST', token, body: form });
  };
  const createRelease = (json: object, token = admin) => s.tc.api('/api/release', { method: 'POST', token, json });
  const agentRelease = (account: { username: string; password: string }) =>
    s.tc.api('/api/agent/release', { headers: { authorization: `Basic ${Buffer.from(`${account.username}:${account.password}`).toString('base64')}` } });
  const auditKinds = async () =>
    (await (await s.tc.api('/api/audit?size=200', { token: admin })).json()).entries.map((e: { kind: string; outcome: string }) => `${e.kind} ${e.outcome}`);

  beforeAll(async () => {
    s = await embeddedSetup({ BUNDLE_MAX_BYTES: String(2 * 1024 * 1024) });
    admin = await s.tc.token(ADMIN_EMAIL);
    const out = tempDir('fleetlink-bundles-');
    cleanup.dirs.push(out);
    for (const v of ['1.0.0', '1.10.0', '1.9.0']) bundleFiles[v] = packAgentBundle(v, out);
  }, 120_000);
  afterAll(async () => tearDown(s, cleanup));

  it('uploads the real agent bundle, keeps its SHA-256 and lists it', async () => {
    const bytes = readFileSync(bundleFiles['1.0.0']!);
    const res = await upload(bytes, path.basename(bundleFiles['1.0.0']!));
    expect(res.status, await res.clone().text()).toBe(201);
    const bundle = bundleSchema.parse(await res.json());
    expect(bundle).toMatchObject({ name: 'fleetlink-agent', version: '1.0.0', size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
    // Kept in the bundle store (DATA_DIR/bundles), byte for byte, apart from the transfers' swept blobs.
    const stored = readdirSync(path.join(s.tc.dataDir, 'bundles'));
    expect(stored).toHaveLength(1);
    expect(readFileSync(path.join(s.tc.dataDir, 'bundles', stored[0]!)).equals(bytes)).toBe(true);
    // The transfers' sweep, even two days on, leaves bundles alone.
    await s.tc.messaging!.blobSweeper.sweep(new Date(Date.now() + 2 * 24 * 3600_000));
    expect(readdirSync(path.join(s.tc.dataDir, 'bundles'))).toEqual(stored);
    for (const v of ['1.10.0', '1.9.0']) expect((await upload(readFileSync(bundleFiles[v]!))).status).toBe(201);

    const list = await (await s.tc.api('/api/bundles', { token: admin })).json();
    expect(list.map((b: { version: string }) => b.version)).toEqual(['1.10.0', '1.9.0', '1.0.0']);
    expect(await (await s.tc.api('/api/bundle-names', { token: admin })).json()).toEqual(['fleetlink-agent']);
    expect(await (await s.tc.api('/api/bundle-versions/fleetlink-agent', { token: admin })).json()).toEqual(['1.10.0', '1.9.0', '1.0.0']);
    expect(await (await s.tc.api('/api/bundle-versions/nothing-here', { token: admin })).json()).toEqual([]);
  });

  it('refuses what is not a bundle, each with its own message, and keeps nothing of it', async () => {
    const refused = async (body: Buffer, status = 400) => {
      const { message } = await expectError(await upload(body), status);
      // Nothing of it is kept, not even a partial file, by the time the answer comes.
      expect(readdirSync(path.join(s.tc.dataDir, 'bundles')).filter((f) => f.endsWith('.part')), message).toEqual([]);
      return message;
    };
    const archive = (...entries: ArchiveEntry[]) => tarGz([manifest('refused', '1.0.0'), ...entries]);
    expect(await refused(Buffer.from('PK\u0003\u0004 this is a zip, not a tar'.repeat(40)))).toBe('The file is not a .tar.gz archive.');
    expect(await refused(tarGz([{ path: 'cli.mjs', body: 'x' }]))).toBe('The archive has no manifest.json at its top level.');
    expect(await refused(tarGz([manifest('refused', '1.0')]))).toBe('The manifest\'s version "1.0" is not a semantic version such as 1.2.3.');
    expect(await refused(tarGz([manifest('Bad Name', '1.0.0')]))).toMatch(/^The manifest's name "Bad Name" is not valid/);
    expect(await refused(tarGz([{ path: 'manifest.json', body: '{"name":' }]))).toBe('manifest.json is not valid JSON.');
    expect(await refused(archive({ path: '../../etc/cron.d/evil', body: 'x' }))).toBe('The archive\'s entry "../../etc/cron.d/evil" points outside the archive.');
    expect(await refused(archive({ path: 'lib/../../evil', body: 'x' }))).toBe('The archive\'s entry "lib/../../evil" points outside the archive.');
    expect(await refused(archive({ path: '/etc/evil', body: 'x' }))).toBe('The archive\'s entry "/etc/evil" points outside the archive.');
    expect(await refused(archive({ path: 'passwd', type: 'SymbolicLink', linkpath: '/etc/passwd' }))).toBe(
      'The archive\'s entry "passwd" is a link: a bundle may hold only files and folders.',
    );
    expect(await refused(archive({ path: 'again', type: 'Link', linkpath: 'manifest.json' }))).toBe('The archive\'s entry "again" is a link: a bundle may hold only files and folders.');
    const whole = archive({ path: 'big.bin', body: Buffer.alloc(50_000, 7) });
    expect(await refused(whole.subarray(0, whole.length - 20))).toMatch(/^The archive is damaged/);
    // Too large: past BUNDLE_MAX_BYTES (2 MiB here), whether the length says so or only the bytes do.
    expect(await refused(Buffer.alloc(3 * 1024 * 1024), 413)).toBe('The bundle is larger than the limit of 2.0 MB.');
    expect(await refused(Buffer.alloc(2 * 1024 * 1024 + 1000), 413)).toBe('The bundle is larger than the limit of 2.0 MB.');
    const form = new FormData();
    expect((await expectError(await s.tc.api('/api/bundle', { method: 'POST', token: admin, body: form }), 400)).message).toBe('Choose a bundle archive (.tar.gz) to upload.');
    // The same name and version again.
    expect(await refused(readFileSync(bundleFiles['1.0.0']!), 409)).toBe('Bundle fleetlink-agent 1.0.0 is already uploaded: give the new one another version.');
    expect(readdirSync(path.join(s.tc.dataDir, 'bundles'))).toHaveLength(3);
    expect((await (await s.tc.api('/api/bundles', { token: admin })).json()).map((b: { name: string }) => b.name)).not.toContain('refused');
  });

  it('creates releases, sorts them by version, and answers each device the newest of the branches it follows', async () => {
    expect((await createRelease({ version: '1.0.0', branch: 'PRODUCTION', notes: 'first', bundles: [{ name: 'fleetlink-agent', version: '1.0.0' }] })).status).toBe(201);
    expect((await createRelease({ version: '1.9.0', branch: 'PRODUCTION', bundles: [{ name: 'fleetlink-agent', version: '1.9.0' }] })).status).toBe(201);
    const early = await createRelease({ version: '1.10.0', branch: 'ACCEPTANCE', bundles: [{ name: 'fleetlink-agent', version: '1.10.0' }] });
    expect(await early.json()).toMatchObject({ branch: 'ACCEPTANCE', version: '1.10.0', notes: null, bundles: [{ name: 'fleetlink-agent', version: '1.10.0' }] });
    const list = releaseListSchema.parse(await (await s.tc.api('/api/releases', { token: admin })).json());
    expect(list.map((r) => `${r.branch} ${r.version}`)).toEqual(['ACCEPTANCE 1.10.0', 'PRODUCTION 1.9.0', 'PRODUCTION 1.0.0']);

    // Two enrolled devices, one on each device branch, ask with their own accounts.
    const stable = await memberDevice(s.tc.database.db, 'stable');
    const eager = await memberDevice(s.tc.database.db, 'eager');
    await s.tc.database.db.update(devices).set({ branch: 'ACCEPTANCE' }).where(eq(devices.id, eager.id));
    const stableAccount = await enrollByHand(s.tc, stable);
    const eagerAccount = await enrollByHand(s.tc, eager);
    const sha = (v: string) => createHash('sha256').update(readFileSync(bundleFiles[v]!)).digest('hex');
    const forStable = agentReleaseSchema.parse(await (await agentRelease(stableAccount)).json());
    expect(forStable.release).toMatchObject({ branch: 'PRODUCTION', version: '1.9.0', bundles: [{ name: 'fleetlink-agent', version: '1.9.0', sha256: sha('1.9.0') }] });
    const forEager = agentReleaseSchema.parse(await (await agentRelease(eagerAccount)).json());
    expect(forEager.release).toMatchObject({ branch: 'ACCEPTANCE', version: '1.10.0', bundles: [{ sha256: sha('1.10.0') }] });
    // Once the acceptance release is gone, early access falls back to the newest stable one.
    expect((await s.tc.api('/api/release/ACCEPTANCE/1.10.0', { method: 'DELETE', token: admin })).status).toBe(204);
    expect((agentReleaseSchema.parse(await (await agentRelease(eagerAccount)).json())).release?.version).toBe('1.9.0');
    // The agent itself asks, with the account it enrolled with: `fleetlink-agent release`.
    const live = await memberDevice(s.tc.database.db, 'live');
    await runAgentOnline(s.tc, live, cleanup);
    const launcher = fileURLToPath(new URL('../../../../agent/bin/fleetlink-agent.mjs', import.meta.url));
    // Not spawnSync: the console answering it runs in this process.
    const asked = await execFileAsync(AGENT_NODE, [launcher, 'release', '--device', live.id, '--data-dir', cleanup.dirs.at(-1)!], { encoding: 'utf8', timeout: 60_000 });
    expect(asked.stdout).toBe(`PRODUCTION 1.9.0\n  fleetlink-agent 1.9.0  sha256 ${sha('1.9.0')}  ${readFileSync(bundleFiles['1.9.0']!).length} bytes\n`);
    // A wrong password, or none, learns nothing.
    await expectError(await agentRelease({ ...stableAccount, password: 'wrong' }), 401);
    await expectError(await s.tc.api('/api/agent/release'), 401);
  });

  it('validates releases with the spec messages and refuses duplicates and unknown bundles', async () => {
    const invalid = await expectError(await createRelease({ version: '', branch: 'NIGHTLY', bundles: [{ name: '', version: '' }] }), 400);
    expect(invalid.fields).toMatchObject({ version: 'Version is required.', branch: 'Branch is required.', 'bundles.0.name': 'Name is required.', 'bundles.0.version': 'Version is required.' });
    const notSemver = await expectError(await createRelease({ version: 'v2', branch: 'TEST', bundles: [{ name: 'fleetlink-agent', version: '1.0.0' }] }), 400);
    expect(notSemver.fields?.version).toBe('Version is not a valid, it contain invalid characters.');
    const twice = { version: '1.0.0', branch: 'PRODUCTION', bundles: [{ name: 'fleetlink-agent', version: '1.0.0' }] };
    expect((await expectError(await createRelease(twice), 409)).message).toBe('Release PRODUCTION 1.0.0 exists already.');
    const unknown = await expectError(await createRelease({ version: '3.0.0', branch: 'TEST', bundles: [{ name: 'fleetlink-agent', version: '9.9.9' }] }), 400);
    expect(unknown.message).toBe('There is no bundle fleetlink-agent 9.9.9.');
    expect((await expectError(await s.tc.api('/api/release/PRODUCTION/7.7.7', { method: 'DELETE', token: admin }), 404)).message).toBe('There is no release PRODUCTION 7.7.7.');
  });

  it('keeps a bundle that a release holds, and deletes it once none does', async () => {
    const held = await expectError(await s.tc.api('/api/bundle/fleetlink-agent/1.0.0', { method: 'DELETE', token: admin }), 409);
    expect(held.message).toBe('Bundle fleetlink-agent 1.0.0 is part of the release PRODUCTION 1.0.0: delete that first.');
    expect((await s.tc.api('/api/release/PRODUCTION/1.0.0', { method: 'DELETE', token: admin })).status).toBe(204);
    expect((await s.tc.api('/api/bundle/fleetlink-agent/1.0.0', { method: 'DELETE', token: admin })).status).toBe(204);
    expect(readdirSync(path.join(s.tc.dataDir, 'bundles'))).toHaveLength(2);
    expect(await (await s.tc.api('/api/bundle-versions/fleetlink-agent', { token: admin })).json()).toEqual(['1.10.0', '1.9.0']);
  });

  it('is for realm ADMIN only, and every change is in the audit trail', async () => {
    for (const email of [USER_EMAIL, GUEST_EMAIL]) {
      const token = await s.tc.token(email);
      for (const [method, url] of [
        ['GET', '/api/bundles'],
        ['GET', '/api/bundle-names'],
        ['GET', '/api/bundle-versions/fleetlink-agent'],
        ['GET', '/api/releases'],
        ['DELETE', '/api/release/PRODUCTION/1.9.0'],
        ['DELETE', '/api/bundle/fleetlink-agent/1.9.0'],
      ] as const) {
        expect((await s.tc.api(url, { method, token })).status, `${email} ${method} ${url}`).toBe(403);
      }
      expect((await upload(readFileSync(bundleFiles['1.9.0']!), 'x.tar.gz', token)).status).toBe(403);
      expect((await createRelease({ version: '5.0.0', branch: 'TEST', bundles: [{ name: 'fleetlink-agent', version: '1.9.0' }] }, token)).status).toBe(403);
    }
    expect((await s.tc.api('/api/releases')).status).toBe(401);
    const kinds = await auditKinds();
    for (const k of ['bundle.upload ok', 'bundle.upload error', 'release.create ok', 'release.create error', 'release.delete ok', 'bundle.delete ok', 'bundle.delete error']) {
      expect(kinds, k).toContain(k);
    }
  });
});

describe('agent bundles in an S3-compatible store', () => {
  let s3: S3Server;
  let s: MessagingSetup;
  const cleanup = { agents: [] as AgentProcess[], dirs: [] as string[] };

  beforeAll(async () => {
    s3 = await startS3();
    s = await embeddedSetup(s3.env);
  }, 60_000);
  afterAll(async () => {
    await tearDown(s, cleanup);
    await s3?.close();
  });

  it('keeps them under BUNDLE_S3_PREFIX, apart from the swept blobs, and deletes them there', async () => {
    const admin = await s.tc.token(ADMIN_EMAIL);
    const body = tarGz([manifest('s3-bundle', '1.0.0'), { path: 'lib/main.mjs', body: 'export const answer = 42;' }]);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(body)]), 's3-bundle.tar.gz');
    expect((await s.tc.api('/api/bundle', { method: 'POST', token: admin, body: form })).status).toBe(201);
    const keys = await s3.keys('fleetlink/bundles/');
    expect(keys).toHaveLength(1);
    expect(await s3.blobs()).toEqual([]);
    await s.tc.messaging!.blobSweeper.sweep(new Date(Date.now() + 2 * 24 * 3600_000));
    expect(await s3.keys('fleetlink/bundles/')).toEqual(keys);
    expect((await s.tc.api('/api/bundle/s3-bundle/1.0.0', { method: 'DELETE', token: admin })).status).toBe(204);
    expect(await s3.keys('fleetlink/bundles/')).toEqual([]);
  });
});
