import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { AgentProperty, agentDownloadsSchema } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../testing/expect-error.js';
import { ADMIN_EMAIL, AGENT_NODE, agentPidUnder, embeddedSetup, GUEST_EMAIL, memberDevice, nodeFlagsOf, startArgsOf, tearDown, tempDir, USER_EMAIL, waitFor, deviceRow, type AgentProcess, type MessagingSetup } from '../broker/broker.test-support.js';
import { packAgentBundle } from './bundle-archives.test-support.js';
import { commandLinesHolding, runInstalled } from './installed-agent.test-support.js';

const execFileAsync = promisify(execFile);

/**
 * Issue 32: the Install page's downloads, built from the release's agent bundle, download, install on
 * this machine (into a temporary prefix, the systemd unit written, the agent started without systemd
 * when none runs here) and come online.
 */
describe('agent downloads and the Linux installer', () => {
  let s: MessagingSetup;
  let admin: string;
  let user: string;
  const cleanup = { agents: [] as AgentProcess[], dirs: [] as string[], pids: [] as number[] };

  const downloads = async (deviceId: string, token = user) => agentDownloadsSchema.parse(await (await s.tc.api(`/api/device/${deviceId}/agent-downloads`, { token })).json());
  const download = async (deviceId: string, kind: string, token = user) => {
    const res = await s.tc.api(`/api/device/${deviceId}/agent-download/${kind}`, { token });
    expect(res.status).toBe(200);
    return { bytes: Buffer.from(await res.arrayBuffer()), disposition: res.headers.get('content-disposition'), length: Number(res.headers.get('content-length')) };
  };
  const online = (deviceId: string) => waitFor(async () => (await deviceRow(s.tc.database.db, deviceId)).online, 30_000, 'installed agent online');

  beforeAll(async () => {
    s = await embeddedSetup();
    [admin, user] = await Promise.all([s.tc.token(ADMIN_EMAIL), s.tc.token(USER_EMAIL)]);
  }, 60_000);
  afterAll(async () => {
    for (const pid of cleanup.pids) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // gone already
      }
    }
    await tearDown(s, cleanup);
  });

  it('offers nothing while the branch has no release, and nothing to a guest without USER', async () => {
    const dev = await memberDevice(s.tc.database.db, 'no release yet');
    expect(await downloads(dev.id)).toEqual({ release: null, downloads: [] });
    expect((await expectError(await s.tc.api(`/api/device/${dev.id}/agent-download/installer`, { token: user }), 404)).message).toBe(
      "There is no release for this device's branch yet, so there is nothing to download.",
    );
    expect((await expectError(await s.tc.api(`/api/device/${dev.id}/agent-downloads`, { token: await s.tc.token(GUEST_EMAIL) }), 403)).message).toBe(
      'You do not have the necessary authorization: role USER is required.',
    );
    expect((await s.tc.api(`/api/device/${dev.id}/agent-download/windows`, { token: user })).status).toBe(400);
  });

  it('builds the installer and the portable archive of the release, whose sizes are the files', async () => {
    const out = tempDir('fleetlink-install-bundle-');
    cleanup.dirs.push(out);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(readFileSync(packAgentBundle('2.0.0', out)))]), 'bundle.tar.gz');
    expect((await s.tc.api('/api/bundle', { method: 'POST', token: admin, body: form })).status).toBe(201);
    expect((await s.tc.api('/api/release', { method: 'POST', token: admin, json: { branch: 'PRODUCTION', version: '2.0.0', bundles: [{ name: 'fleetlink-agent', version: '2.0.0' }] } })).status).toBe(201);
    const dev = await memberDevice(s.tc.database.db, 'installed');
    const list = await downloads(dev.id);
    expect(list.release).toEqual({ branch: 'PRODUCTION', version: '2.0.0', bundleVersion: '2.0.0', builtIn: false });
    expect(list.downloads.map((d) => d.name)).toEqual(['fleetlink-agent-2.0.0-linux-installer.sh', 'fleetlink-agent-2.0.0-linux-portable.tar.gz']);
    for (const d of list.downloads) {
      const file = await download(dev.id, d.kind);
      expect(file.bytes.length).toBe(d.size);
      expect(file.length).toBe(d.size);
      expect(file.disposition).toContain(`filename="${d.name}"`);
    }
  }, 120_000);

  it('installs with the installer into a prefix, writes the unit, starts the agent, and it comes online', async () => {
    const dev = await memberDevice(s.tc.database.db, 'by installer');
    const work = tempDir('fleetlink-installer-');
    cleanup.dirs.push(work);
    const installer = path.join(work, 'installer.sh');
    writeFileSync(installer, (await download(dev.id, 'installer')).bytes);
    const prefix = path.join(work, 'opt', 'fleetlink-agent');
    const unitDir = path.join(work, 'systemd');
    // The Install page's command (agent-command.ts), with this test's prefix and unit folder.
    const command = `printf %s ${dev.key} | sh ${installer} --server ${s.tc.url} --device ${dev.id} --key-file - --prefix ${prefix} --unit-dir ${unitDir}`;
    const run = await execFileAsync('sh', ['-c', command], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, PATH: `${path.dirname(AGENT_NODE)}:${process.env.PATH}` },
    });
    expect(run.stdout).toContain(`Installed the Fleetlink agent 2.0.0 into ${prefix}; systemd unit: ${unitDir}/fleetlink-agent.service`);
    expect(run.stdout).toMatch(/Started without systemd \(not running here\): pid \d+/);
    const launcher = Number(readFileSync(path.join(prefix, 'agent.pid'), 'utf8'));
    cleanup.pids.push(launcher);
    const unit = readFileSync(path.join(unitDir, 'fleetlink-agent.service'), 'utf8');
    expect(unit).toContain(`ExecStart=/bin/sh ${prefix}/fleetlink-agent run`);
    expect(unit).not.toContain(dev.key);
    // The key stays where only the agent's user can read it.
    expect(statSync(path.join(prefix, 'agent.env')).mode & 0o777).toBe(0o600);
    expect(readFileSync(path.join(prefix, 'agent.env'), 'utf8')).toContain(`FLEETLINK_KEY='${dev.key}'`);
    await online(dev.id);
    // The agent runs with the Node.js flags its bundle names (bin/node-flags.mjs), as the launcher read them.
    const agentPid = await waitFor(async () => agentPidUnder(launcher), 10_000, 'the agent under its launcher');
    const flags = nodeFlagsOf(path.join(prefix, 'bundles', '2.0.0'));
    expect(flags).toContain('--expose-gc');
    expect(startArgsOf(agentPid, flags.length)).toEqual(flags);
    // Only this test's own `sh -c` held the key on a command line: no process of the installation does.
    expect(commandLinesHolding(dev.key).filter((l) => !l.includes('printf'))).toEqual([]);
    const props = await waitFor(async () => (await deviceRow(s.tc.database.db, dev.id)).properties ?? undefined, 20_000, 'properties');
    expect(props[AgentProperty.BundleVersion]).toBe('2.0.0');
    expect(props[AgentProperty.LauncherVersion]).toBe('1.0.0');
    expect(props[AgentProperty.UpdateStatus]).toBe('CURRENT');
    expect(existsSync(path.join(prefix, 'data', 'agent.json'))).toBe(true);
  }, 120_000);

  it('runs the portable archive where it is unpacked', async () => {
    const dev = await memberDevice(s.tc.database.db, 'portable');
    const work = tempDir('fleetlink-portable-');
    cleanup.dirs.push(work);
    writeFileSync(path.join(work, 'portable.tar.gz'), (await download(dev.id, 'portable')).bytes);
    await execFileAsync('tar', ['-xzf', 'portable.tar.gz'], { cwd: work });
    const home = path.join(work, 'fleetlink-agent-2.0.0');
    cleanup.agents.push(runInstalled(home, { server: s.tc.url, device: dev.id, key: dev.key }));
    await online(dev.id);
    expect(commandLinesHolding(dev.key)).toEqual([]);
  }, 60_000);

  it('refuses what would not make a working installation, before writing anything', async () => {
    const dev = await memberDevice(s.tc.database.db, 'refused');
    const work = tempDir('fleetlink-installer-bad-');
    cleanup.dirs.push(work);
    const installer = path.join(work, 'installer.sh');
    writeFileSync(installer, (await download(dev.id, 'installer')).bytes);
    const prefix = path.join(work, 'opt');
    const attempt = (args: string[], env: Record<string, string> = {}) =>
      execFileAsync('sh', [installer, ...args, '--prefix', prefix, '--unit-dir', path.join(work, 'units')], { encoding: 'utf8', env: { ...process.env, ...env } }).then(
        () => '',
        (err: { stderr: string }) => err.stderr.trim(),
      );
    expect(await attempt(['--server', 'ftp://x', '--device', dev.id])).toBe("fleetlink-agent installer: --server must be the console's http:// or https:// address.");
    expect(await attempt(['--server', s.tc.url, '--device', dev.id, "--key=a'b"])).toBe('fleetlink-agent installer: --key is not an installation key (copy it from the Install page).');
    expect(await attempt(['--server', s.tc.url, '--device', dev.id], { FLEETLINK_NODE: '/bin/false' })).toBe(
      'fleetlink-agent installer: /bin/false is not Node.js 20.19 or newer: install that (or give its path in FLEETLINK_NODE) and run this again.',
    );
    // An old Node.js says which it is (a script that answers like node 18 would).
    const old = path.join(work, 'node18');
    writeFileSync(old, '#!/bin/sh\ncase "$2" in *process.version\\)) printf v18.20.4; exit 0;; esac\nexit 1\n', { mode: 0o755 });
    expect(await attempt(['--server', s.tc.url, '--device', dev.id], { FLEETLINK_NODE: old })).toMatch(/is not Node.js 20.19 or newer \(it is v18.20.4\): install that/);
    expect(existsSync(prefix)).toBe(false);
  }, 60_000);
});
