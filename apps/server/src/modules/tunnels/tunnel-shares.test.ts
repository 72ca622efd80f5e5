import { connect as connectTcp, type Socket } from 'node:net';
import { readdirSync } from 'node:fs';
import { SSH_SIGN_IN_MS, SSH_UNAUTHENTICATED_PER_ADDRESS } from '@fleetlink/proxy';
import type { Tunnel } from '@fleetlink/contract';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../testing/expect-error.js';
import { freePort } from '../../testing/test-console.js';
import { ADMIN_EMAIL, embeddedSetup, enrollByHand, memberDevice, onlineMemberDevice, tearDown, waitFor, type AgentProcess, type MessagingSetup } from '../broker/broker.test-support.js';
import { startTcpEcho, tcpExchange } from './local-service.test-support.js';
import { createTunnel, startTunnel } from './tunnel-api.test-support.js';

/**
 * Issue 57: one device cannot take the proxy's TCP ports or its SSH server from everyone else: a
 * TCP tunnel has one port whatever the number of its device's connections, a device has at most
 * TUNNEL_TCP_MAX_PER_DEVICE of them, the person connecting one past that (or past a full range) is
 * told so, and connections that never sign in are cut.
 */
describe('fair shares of the proxy', () => {
  const agents: AgentProcess[] = [];
  const dirs: string[] = [];
  const clients: ssh2.Client[] = [];
  let s: MessagingSetup;
  let admin: string;
  let sshPort: number;
  let echo: { port: number; close(): Promise<void> };
  let range: { from: number; to: number };

  const tunnel = (deviceId: string, json: object) => createTunnel(s.tc, admin, deviceId, json);
  const start = (deviceId: string, t: Tunnel) => startTunnel(s.tc, admin, deviceId, t);
  /** An SSH connection signed in as a device that serves each forwarded connection one greeting. */
  const signIn = async (account: { username: string; password: string }, greeting: string) => {
    const client = new ssh2.Client();
    clients.push(client);
    client.on('tcp connection', (_info, accept) => accept().end(greeting));
    await new Promise<void>((resolve, reject) => {
      client.once('ready', () => resolve());
      client.once('error', reject);
      client.connect({ host: '127.0.0.1', port: sshPort, username: account.username, password: account.password });
    });
    client.on('error', () => {});
    return client;
  };
  const forward = (client: ssh2.Client, port: number) => new Promise<void>((resolve, reject) => client.forwardIn('localhost', port, (err) => (err ? reject(err) : resolve())));
  /** The ports of the range someone listens on now. */
  const listening = async () => {
    const open: number[] = [];
    for (let port = range.from; port <= range.to; port++) if (!(await tcpExchange(port, Buffer.alloc(0))).error) open.push(port);
    return open;
  };

  beforeAll(async () => {
    sshPort = await freePort();
    const from = await freePort();
    range = { from, to: from + 2 };
    s = await embeddedSetup({ TUNNEL_SSH_PORT: String(sshPort), TUNNEL_HTTP_PORT: String(await freePort()), TUNNEL_TCP_PORTS: `${range.from}-${range.to}`, TUNNEL_TCP_MAX_PER_DEVICE: '2' });
    admin = await s.tc.token(ADMIN_EMAIL);
    echo = await startTcpEcho();
  });
  afterAll(async () => {
    clients.forEach((c) => c.end());
    await echo?.close();
    await tearDown(s, { agents, dirs });
  });

  it('gives a TCP tunnel one port for five connections of its device, and a device its share; the person connecting past it is told why', async () => {
    // Five SSH connections of one device, each forwarding the same TCP tunnel: one port.
    const other = await memberDevice(s.tc.database.db, 'many connections');
    const account = await enrollByHand(s.tc, other);
    const theirs = await tunnel(other.id, { port: 7000, type: 'TCP' });
    const connections: ssh2.Client[] = [];
    for (let i = 0; i < 5; i++) {
      const client = await signIn(account, `connection ${i}`);
      await forward(client, theirs.port);
      connections.push(client);
    }
    // (A device holds at most four connections: the fifth sign-in ended the first.)
    expect(await listening()).toHaveLength(1);
    const [theirPort] = await listening();
    expect((await tcpExchange(theirPort!, Buffer.alloc(0))).received.toString()).toBe('connection 4');

    // A device with a real agent connects two TCP tunnels; the third is past its share.
    const { device } = await onlineMemberDevice(s, 'greedy', { agents, dirs });
    const mine = [await tunnel(device.id, { port: echo.port, type: 'TCP' }), await tunnel(device.id, { port: echo.port + 1, type: 'TCP' }), await tunnel(device.id, { port: echo.port + 2, type: 'TCP' })];
    expect((await start(device.id, mine[0]!)).status).toBe(200);
    expect((await start(device.id, mine[1]!)).status).toBe(200);
    const pastShare = await expectError(await start(device.id, mine[2]!), 409);
    expect(pastShare.message).toBe('This device has 2 TCP tunnels connected at this proxy, the most one device may have: disconnect one first.');

    // The range full: it says that instead.
    expect((await s.tc.api(`/api/device/${device.id}/tunnel/${mine[1]!.id}/stop`, { method: 'POST', token: admin })).status).toBe(200);
    const third = await memberDevice(s.tc.database.db, 'third');
    const thirdClient = await signIn(await enrollByHand(s.tc, third), 'third device');
    await forward(thirdClient, (await tunnel(third.id, { port: 7001, type: 'TCP' })).port);
    const full = await expectError(await start(device.id, mine[2]!), 409);
    expect(full.message).toBe(`No port is free for a TCP tunnel at this proxy: all of ${range.from}-${range.to} are in use. Try again later, or ask an administrator to widen the range.`);
    // Everyone keeps the port they had.
    expect((await tcpExchange(theirPort!, Buffer.alloc(0))).received.toString()).toBe('connection 4');
    expect(await listening()).toHaveLength(3);
  });

  it(`cuts connections that do not sign in within ${SSH_SIGN_IN_MS / 1000} s, and closes at once those past the cap of one address`, async () => {
    const fds = () => readdirSync('/proc/self/fd').length;
    const before = fds();
    const idle: Socket[] = [];
    const closedAt: number[] = [];
    const opened = Date.now();
    for (let i = 0; i < 500; i++) {
      const socket = connectTcp(sshPort, '127.0.0.1', () => socket.write('SSH-2.0-x\r\n'));
      socket.on('error', () => {});
      // Read what the proxy says (its own version and key exchange), or the end behind it is never seen.
      socket.resume();
      socket.on('close', () => closedAt.push(Date.now() - opened));
      idle.push(socket);
    }
    // Past the cap of one address, closed at once.
    await waitFor(() => closedAt.length >= 500 - SSH_UNAUTHENTICATED_PER_ADDRESS || undefined, 5000, 'the connections past the cap closed');
    // The rest at the deadline, and the file descriptors with them.
    await waitFor(() => closedAt.length === 500 || undefined, SSH_SIGN_IN_MS + 5000, 'every idle connection cut');
    expect(Math.max(...closedAt)).toBeGreaterThanOrEqual(SSH_SIGN_IN_MS - 500);
    await waitFor(() => fds() <= before + 10 || undefined, 5000, 'the console process to let go of their file descriptors');
    // A device signs in again afterwards.
    const late = await memberDevice(s.tc.database.db, 'after the flood');
    await signIn(await enrollByHand(s.tc, late), 'late');
  }, 30_000);
});
