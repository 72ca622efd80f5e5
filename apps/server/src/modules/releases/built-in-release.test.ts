import { readFileSync } from 'node:fs';
import { agentDownloadsSchema } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, embeddedSetup, memberDevice, tearDown, tempDir, USER_EMAIL, type MessagingSetup } from '../broker/broker.test-support.js';
import { packAgentBundle } from './bundle-archives.test-support.js';
import { BUILT_IN_RELEASE_NOTES } from './releases.service.js';

const agentVersion: string = JSON.parse(readFileSync(new URL('../../../../agent/package.json', import.meta.url), 'utf8')).version;

/**
 * Issue 59: a new console offers the Install page's downloads before anyone uploaded a bundle: at
 * its first start it registers the agent it was built with as the built-in release, once.
 */
describe('the built-in release', () => {
  let s: MessagingSetup;
  let admin: string;
  const dirs: string[] = [];
  const get = async (path: string, token = admin) => (await s.tc.api(path, { token })).json();

  beforeAll(async () => {
    s = await embeddedSetup({ AGENT_BUILT_IN_RELEASE: 'true' });
    admin = await s.tc.token(ADMIN_EMAIL);
  }, 120_000);
  afterAll(() => tearDown(s, { agents: [], dirs }));

  it('is registered at the first start, audited, and offers both downloads of the agent this console was built with', async () => {
    expect(await get('/api/releases')).toMatchObject([
      { branch: 'PRODUCTION', version: agentVersion, builtIn: true, notes: BUILT_IN_RELEASE_NOTES, bundles: [{ name: 'fleetlink-agent', version: agentVersion }] },
    ]);
    for (const kind of ['bundle.upload', 'release.create']) {
      const { entries } = await get(`/api/audit?kind=${kind}`);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ username: 'Fleetlink console (at start)', outcome: 'ok', details: expect.objectContaining({ builtIn: true }) });
    }
    const dev = await memberDevice(s.tc.database.db, 'fresh console');
    const listed = agentDownloadsSchema.parse(await get(`/api/device/${dev.id}/agent-downloads`, await s.tc.token(USER_EMAIL)));
    expect(listed.release).toEqual({ branch: 'PRODUCTION', version: agentVersion, bundleVersion: agentVersion, builtIn: true });
    expect(listed.downloads.map((d) => d.name)).toEqual([`fleetlink-agent-${agentVersion}-linux-installer.sh`, `fleetlink-agent-${agentVersion}-linux-portable.tar.gz`]);
    // A real installer: the script, then the archive.
    const installer = Buffer.from(await (await s.tc.api(`/api/device/${dev.id}/agent-download/installer`, { token: admin })).arrayBuffer());
    expect(installer.subarray(0, 9).toString()).toBe('#!/bin/sh');
    expect(installer.length).toBe(listed.downloads[0]!.size);
  }, 60_000);

  it("gives way to an operator's own release, even of a lower version", async () => {
    const dir = tempDir('fleetlink-built-in-');
    dirs.push(dir);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(readFileSync(packAgentBundle('0.0.5', dir)))]), 'bundle.tar.gz');
    expect((await s.tc.api('/api/bundle', { method: 'POST', token: admin, body: form })).status).toBe(201);
    const dev = await memberDevice(s.tc.database.db, 'operator release');
    expect(agentDownloadsSchema.parse(await get(`/api/device/${dev.id}/agent-downloads`)).release?.version).toBe(agentVersion);
    await s.tc.api('/api/release', { method: 'POST', token: admin, json: { branch: 'PRODUCTION', version: '0.0.5', bundles: [{ name: 'fleetlink-agent', version: '0.0.5' }] } });
    expect(agentDownloadsSchema.parse(await get(`/api/device/${dev.id}/agent-downloads`)).release).toMatchObject({ version: '0.0.5', builtIn: false });
    // Gone again: the built-in one is what devices take.
    expect((await s.tc.api('/api/release/PRODUCTION/0.0.5', { method: 'DELETE', token: admin })).status).toBe(204);
    expect(agentDownloadsSchema.parse(await get(`/api/device/${dev.id}/agent-downloads`)).release).toMatchObject({ version: agentVersion, builtIn: true });
  }, 120_000);
  it('is registered once: not again at the next start, nor after it was deleted', async () => {
    await s.tc.restart();
    admin = await s.tc.token(ADMIN_EMAIL);
    expect(await get('/api/releases')).toHaveLength(1);
    expect((await s.tc.api(`/api/release/PRODUCTION/${agentVersion}`, { method: 'DELETE', token: admin })).status).toBe(204);
    await s.tc.restart();
    admin = await s.tc.token(ADMIN_EMAIL);
    expect(await get('/api/releases')).toEqual([]);
  }, 120_000);

});
