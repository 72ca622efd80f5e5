import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { serverSchema, tunnelSchema } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../testing/test-console.js';
import { embeddedSetup, enrollByHand, memberDevice, tearDown, tempDir, waitFor, type MessagingSetup } from '../broker/broker.test-support.js';
import { ingressGet, startLocalService, type LocalService } from './local-service.test-support.js';
import { TunnelsRepository } from './tunnels.repository.js';

/**
 * Issue 30: the proxy is an SSH server by the protocol, not only for our agent. OpenSSH's own client
 * (`ssh -R`, Debian's openssh-client), signed in with a device's credential and checking the proxy's
 * registered host key, opens a device's tunnel as the agent does.
 */
describe('OpenSSH against the proxy', () => {
  const dirs: string[] = [];
  let s: MessagingSetup;
  let service: LocalService;
  let ssh: ChildProcess | undefined;
  const ports = { ssh: 0, http: 0 };

  beforeAll(async () => {
    ports.ssh = await freePort();
    ports.http = await freePort();
    s = await embeddedSetup({ TUNNEL_SSH_PORT: String(ports.ssh), TUNNEL_HTTP_PORT: String(ports.http) });
    service = await startLocalService('Forwarded by OpenSSH');
  });
  afterAll(async () => {
    ssh?.kill();
    await service?.close();
    await tearDown(s, { agents: [], dirs });
  });

  /** `ssh -N -R port:127.0.0.1:port` as the device, answering the password prompt through SSH_ASKPASS. */
  function openSshForward(o: { deviceId: string; password: string; port: number; knownHost: string }): { child: ChildProcess; output(): string } {
    const dir = tempDir('fleetlink-openssh-');
    dirs.push(dir);
    const knownHosts = path.join(dir, 'known_hosts');
    writeFileSync(knownHosts, `[127.0.0.1]:${ports.ssh} ${o.knownHost}\n`);
    const askpass = path.join(dir, 'askpass.sh');
    writeFileSync(path.join(dir, 'password'), o.password);
    writeFileSync(askpass, `#!/bin/sh\ncat '${path.join(dir, 'password')}'\n`);
    chmodSync(askpass, 0o700);
    const args = ['-N', '-R', `${o.port}:127.0.0.1:${o.port}`, '-p', String(ports.ssh), '-F', '/dev/null'];
    const options = ['StrictHostKeyChecking=yes', `UserKnownHostsFile=${knownHosts}`, 'ExitOnForwardFailure=yes', 'PreferredAuthentications=password', 'PubkeyAuthentication=no', 'BatchMode=no', 'NumberOfPasswordPrompts=1'];
    const child = spawn('ssh', [...args, ...options.flatMap((x) => ['-o', x]), `${o.deviceId}@127.0.0.1`], {
      env: { PATH: process.env.PATH, HOME: dir, SSH_ASKPASS: askpass, SSH_ASKPASS_REQUIRE: 'force', DISPLAY: ':0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    return { child, output: () => out };
  }

  const get = (hostname: string) => ingressGet(ports.http, hostname);

  it('opens a device’s tunnel with ssh -R, and is refused with a wrong password or another port', async () => {
    const admin = await s.tc.token('admin@fleetlink.local');
    const device = await memberDevice(s.tc.database.db, 'openssh');
    const account = await enrollByHand(s.tc, device);
    const created = await s.tc.api(`/api/device/${device.id}/tunnel`, { method: 'POST', token: admin, json: { port: service.port, path: 'openssh' } });
    const tunnel = tunnelSchema.parse(await created.json());
    const proxyServer = serverSchema.parse(await (await s.tc.api(`/api/server/${s.tc.proxy!.serverId}`, { token: admin })).json());

    // A wrong password: OpenSSH gives up, nothing is forwarded.
    const wrong = openSshForward({ deviceId: device.id, password: 'not the password', port: service.port, knownHost: proxyServer.hostKey! });
    await new Promise((resolve) => wrong.child.once('exit', resolve));
    expect(wrong.child.exitCode).toBe(255);
    expect(wrong.output()).toContain('Permission denied');
    // A port that is not one of the device's tunnels: the forward is refused and ssh stops.
    const other = openSshForward({ deviceId: device.id, password: account.password, port: service.port + 1, knownHost: proxyServer.hostKey! });
    await new Promise((resolve) => other.child.once('exit', resolve));
    expect(other.output()).toContain(`remote port forwarding failed for listen port ${service.port + 1}`);

    const forward = openSshForward({ deviceId: device.id, password: account.password, port: service.port, knownHost: proxyServer.hostKey! });
    ssh = forward.child;
    // (No agent runs for this device: it reads offline, and the proxy's report is in the table.)
    const reported = () => new TunnelsRepository(s.tc.database.db).find(device.id, tunnel.id);
    await waitFor(async () => (await reported())?.state === 'CONNECTED' || forward.child.exitCode !== null, 15_000, 'the forward reported connected');
    expect(forward.child.exitCode, forward.output()).toBeNull();
    expect((await reported())?.mapping).toBe(`http://openssh.localhost:${ports.http}`);
    const page = await get(`openssh.localhost`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>Forwarded by OpenSSH</h1>');

    forward.child.kill('SIGTERM');
    await waitFor(async () => (await get('openssh.localhost')).status === 502, 15_000, 'the tunnel gone with ssh');
    await waitFor(async () => (await reported())?.state === 'DISCONNECTED', 5000, 'the end reported');
  });
});
