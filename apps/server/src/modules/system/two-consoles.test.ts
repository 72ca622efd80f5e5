import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { apiTokens, auditEntries, devices, jobResults, jobRuns, organizationMembers } from '../../db/schema/index.js';
import mqtt from 'mqtt';
import { agentClientId, commandOutputSchema, TerminalClose, consoleInstanceSchema, deviceSchema, serverSchema, tunnelSchema, tunnelStatusSchema, type ConsoleInstance } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver } from '../alerts/webhook-receiver.test-support.js';
import { passwordLogin } from '../../idp/password-login.js';
import { startBalancer, type Balancer } from '../../testing/balancer.test-support.js';
import { startConsoleProcess, type ConsoleProcess } from '../../testing/console-process.test-support.js';
import { createTestDatabase, freePort, startTestConsole, type TestConsole } from '../../testing/test-console.js';
import {
  ADMIN_EMAIL,
  deviceRow,
  memberDevice,
  mosquittoBin,
  spawnAgent,
  startMosquitto,
  tempDir,
  USER_EMAIL,
  waitFor,
  type AgentProcess,
  type MosquittoProcess,
} from '../broker/broker.test-support.js';
import { openLive, sawOnline } from '../live/live.test-support.js';
import { openTerminal, type TerminalClient } from '../terminal/terminal.test-support.js';
import { manifest, tarGz } from '../releases/bundle-archives.test-support.js';
import { startS3, type S3Server } from '../transfers/s3.test-support.js';
import { ingressGet, startLocalService, type LocalService } from '../tunnels/local-service.test-support.js';
import { hostKeyFile, startStandaloneProxy, type StandaloneProxy } from '../tunnels/standalone-proxy.test-support.js';

const bin = mosquittoBin();
const DOMAIN = 'tunnels.test';
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * Issue 60: two consoles side by side on one PostgreSQL, one Mosquitto (dynamic security), one
 * S3-compatible store and one standalone proxy, behind a balancer with nothing sticky. Console A
 * runs as its own process (it is killed hard below), B in this one. Each capability is driven
 * alternately through A and B, straight at each console's port; agents and the proxy reach the
 * consoles only through the balancer, at the PUBLIC_URL both share.
 */
describe.skipIf(!bin || !process.env.TEST_DATABASE_URL)('two consoles side by side', () => {
  let database: { url: string; drop(): Promise<void> };
  let mosquitto: MosquittoProcess;
  let s3: S3Server;
  let lb: Balancer;
  let a: ConsoleProcess;
  let b: TestConsole;
  let proxy: StandaloneProxy;
  let service: LocalService;
  const ports = { a: 0, b: 0, ssh: 0, http: 0 };
  let env: Record<string, string>;
  let admin: string;
  let user: string;
  let userRefresh: string | undefined;
  let messageServerId: string;
  let proxyServerId: string;
  const agents: AgentProcess[] = [];
  const dirs: string[] = [];

  const urlOf = (which: 'A' | 'B') => `http://127.0.0.1:${which === 'A' ? ports.a : ports.b}`;
  /** A call straight at one console, as the balancer would send it there. */
  const call = async (which: 'A' | 'B', method: string, pathname: string, json?: unknown, token = admin) => {
    const res = await fetch(`${urlOf(which)}${pathname}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await res.text();
    return { status: res.status, body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
  };
  const instance = async (which: 'A' | 'B'): Promise<ConsoleInstance> => consoleInstanceSchema.parse((await call(which, 'GET', '/api/servers-console')).body);
  const command = (which: 'A' | 'B', deviceId: string, shell: string) =>
    call(which, 'POST', `/api/device/${deviceId}/command`, { name: 'execute', parameters: [{ name: 'command', value: shell }] });
  const startConsoleA = () => startConsoleProcess({ ...env, PORT: String(ports.a), DATA_DIR: tempDir('fleetlink-console-a-') });

  /** A device of a new organization (admin@ ADMIN, user@ USER) with a real agent that reaches the consoles through the balancer. */
  const liveDevice = async (name: string) => {
    const device = await memberDevice(b.database.db, name);
    const dataDir = tempDir('fleetlink-agent-');
    dirs.push(dataDir);
    const agent = spawnAgent({ server: lb.url, device: device.id, key: device.key, dataDir });
    agents.push(agent);
    await waitFor(async () => (await deviceRow(b.database.db, device.id)).online, 20_000, `${name} online`);
    return { device, agent };
  };

  beforeAll(async () => {
    database = (await createTestDatabase('fleetlink_two'))!;
    [mosquitto, s3, lb, service] = await Promise.all([startMosquitto(bin!, await freePort()), startS3(), startBalancer(), startLocalService('Hello through two consoles')]);
    ports.a = await freePort();
    ports.b = await freePort();
    ports.ssh = await freePort();
    ports.http = await freePort();
    env = {
      DATABASE_URL: database.url,
      PUBLIC_URL: lb.url,
      SECRET_KEY: randomBytes(32).toString('base64'),
      HOST: '127.0.0.1',
      MQTT_EMBEDDED_PORT: '0',
      TUNNEL_SSH_PORT: '0',
      TUNNEL_DOMAIN: DOMAIN,
      AGENT_HEARTBEAT_SECONDS: '1',
      API_TOKEN_RATE_LIMIT: '20',
      // One job command in flight per console, looked for often: a job's devices must be shared out.
      JOB_CONCURRENCY: '1',
      JOB_TICK_MS: '200',
      ROLLOUT_TICK_MS: '100',
      // Alert rounds as often as both can: each event must still be said once.
      ALERT_TICK_MS: '100',
      ALERT_WEBHOOK_PRIVATE_TARGETS: 'true',
      ...s3.env,
    };
    // Both start at once on the new database: one migrates and seeds, the other waits and finds it done.
    [a, b] = await Promise.all([startConsoleA(), startTestConsole({ ...env, PORT: String(ports.b) })]);
    lb.backends = [ports.a, ports.b];
    ({ access_token: admin } = await passwordLogin({ consoleUrl: lb.url, email: ADMIN_EMAIL, password: 'admin' }));
    ({ access_token: user, refresh_token: userRefresh } = await passwordLogin({ consoleUrl: lb.url, email: USER_EMAIL, password: 'user' }));

    // Mosquitto registered at A: B hears of it and connects too.
    const registered = await call('A', 'POST', '/api/server', {
      type: 'MESSAGE',
      url: mosquitto.url,
      maxCapacity: 1000,
      status: 'ONLINE',
      username: mosquitto.admin.username,
      password: mosquitto.admin.password,
      blobBaseUrl: lb.url,
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    messageServerId = serverSchema.parse(registered.body).id;

    // The proxy registered at B, signing in to whichever console the balancer picks.
    const key = hostKeyFile(tempDir('fleetlink-proxy-'));
    const password = randomBytes(16).toString('hex');
    const proxyServer = await call('B', 'POST', '/api/server', {
      type: 'PROXY',
      url: `ssh://127.0.0.1:${ports.ssh}`,
      maxCapacity: 1000,
      status: 'ONLINE',
      username: 'proxy',
      password,
      hostKey: key.publicKey,
    });
    expect(proxyServer.status, JSON.stringify(proxyServer.body)).toBe(201);
    proxyServerId = serverSchema.parse(proxyServer.body).id;
    proxy = await startStandaloneProxy({
      FLEETLINK_CONSOLE_URL: lb.url,
      PROXY_SERVER_ID: proxyServerId,
      PROXY_PASSWORD: password,
      PROXY_HOST_KEY_FILE: key.file,
      PROXY_SSH_HOST: '127.0.0.1',
      PROXY_SSH_PORT: String(ports.ssh),
      PROXY_HTTP_HOST: '127.0.0.1',
      PROXY_HTTP_PORT: String(ports.http),
      PROXY_DOMAIN: DOMAIN,
    });
  }, 120_000);

  afterAll(async () => {
    for (const agent of agents) await agent.kill();
    await proxy?.stop();
    await a?.kill('SIGKILL');
    await b?.close();
    await Promise.all([mosquitto?.dispose(), s3?.close(), lb?.close(), service?.close()]);
    await database?.drop();
  });

  it('connects both consoles to the message server registered at one of them', async () => {
    await waitFor(() => b.messaging!.hub.isConnected(messageServerId), 15_000, 'B connected to Mosquitto');
    await waitFor(async () => {
      const servers = (await call('A', 'GET', '/api/servers')).body as { id: string; connection?: { state: string } }[];
      return servers.find((s) => s.id === messageServerId)?.connection?.state === 'CONNECTED';
    }, 15_000, 'A connected to Mosquitto');
    const [ia, ib] = [await instance('A'), await instance('B')];
    expect(ia.id).not.toBe(ib.id);
  });

  it('signs in through either console and takes the token at both', async () => {
    // The sign-in's steps went round robin: both consoles answered some of them.
    expect(lb.served.get(ports.a)).toBeGreaterThan(0);
    expect(lb.served.get(ports.b)).toBeGreaterThan(0);
    for (const which of ['A', 'B'] as const) {
      const me = await call(which, 'GET', '/api/me', undefined, user);
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ username: USER_EMAIL });
    }
    // Renewed at A, then at B with the refresh token A handed out: the grants live in the database.
    for (const which of ['A', 'B'] as const) {
      const renewed = await fetch(`${urlOf(which)}/idp/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: userRefresh!, client_id: 'fleetlink-console' }),
      });
      const tokens = (await renewed.json()) as { access_token: string; refresh_token: string };
      expect(renewed.status, JSON.stringify(tokens)).toBe(200);
      userRefresh = tokens.refresh_token;
      expect((await call(which === 'A' ? 'B' : 'A', 'GET', '/api/me', undefined, tokens.access_token)).status).toBe(200);
    }
  });

  it('enrolls a device once when both consoles get its key at the same moment; it reads its release at either', async () => {
    const device = await memberDevice(b.database.db, 'raced');
    const enroll = (which: 'A' | 'B') =>
      fetch(`${urlOf(which)}/api/agent/enroll`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ deviceId: device.id, key: device.key, agent: { version: 'test', hostname: 'raced' } }),
      });
    const answers = await Promise.all([enroll('A'), enroll('B')]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 403]);
    const account = ((await answers.find((r) => r.status === 200)!.json()) as { mqtt: { username: string; password: string } }).mqtt;
    // The broker keeps the winner's account: the one the agent got.
    const client = await mqtt.connectAsync(mosquitto.url, { clientId: agentClientId(device.id), username: account.username, password: account.password, reconnectPeriod: 0 });
    await client.endAsync();

    // A bundle uploaded at A, its release made at B (on a branch no running agent follows), read at both.
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(tarGz([manifest('fleetlink-agent', '9.0.0'), { path: 'cli.mjs', body: 'export {}' }]))]), 'bundle.tar.gz');
    const uploaded = await fetch(`${urlOf('A')}/api/bundle`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const released = await call('B', 'POST', '/api/release', { version: '9.0.0', branch: 'ACCEPTANCE', bundles: [{ name: 'fleetlink-agent', version: '9.0.0' }] });
    expect(released.status, JSON.stringify(released.body)).toBe(201);
    const moved = await call('A', 'PUT', `/api/device/${device.id}`, { organization: device.organizationId, name: 'raced', branch: 'ACCEPTANCE' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const basic = { authorization: `Basic ${Buffer.from(`${account.username}:${account.password}`).toString('base64')}` };
    for (const which of ['A', 'B'] as const) {
      const release = (await (await fetch(`${urlOf(which)}/api/agent/release`, { headers: basic })).json()) as { release: { version: string } | null };
      expect(release.release?.version).toBe('9.0.0');
    }
    const bundle = await fetch(`${lb.url}/api/agent/bundle/fleetlink-agent/9.0.0`, { headers: basic });
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBe((await uploaded.json()).size);
  });

  it('hands each telemetry message to one console: their shares add up to what the device sent', async () => {
    const seen: string[] = [];
    const observer = mqtt.connect(mosquitto.url, { username: mosquitto.admin.username, password: mosquitto.admin.password, clean: true });
    observer.on('message', (topic, payload, packet) => {
      // Retained states are the broker's memory, sent to this new subscription alone; not traffic.
      if (!packet.retain && payload.length) seen.push(topic);
    });
    await new Promise<void>((resolve, reject) =>
      observer.on('connect', () => observer.subscribe(['fl/d/+/state', 'fl/d/+/heartbeat', 'fl/d/+/properties', 'fl/d/+/metrics'], { qos: 1 }, (err) => (err ? reject(err) : resolve()))),
    );
    try {
      const before = [await instance('A'), await instance('B')];
      const { agent } = await liveDevice('counted');
      // A few heartbeats (one a second), then a goodbye: the fleet is quiet again.
      await new Promise((r) => setTimeout(r, 5000));
      await agent.kill('SIGTERM');
      const handled = async () => {
        const [ia, ib] = [await instance('A'), await instance('B')];
        return { a: ia.telemetry.handled - before[0]!.telemetry.handled, b: ib.telemetry.handled - before[1]!.telemetry.handled };
      };
      const settled = await waitFor(async () => {
        const h = await handled();
        return seen.length > 5 && h.a + h.b === seen.length && h;
      }, 15_000, 'the consoles to have handled what the device sent');
      // Still equal a moment later: nothing was handled twice, late.
      await new Promise((r) => setTimeout(r, 1500));
      expect(await handled()).toEqual(settled);
      expect(settled.a + settled.b).toBe(seen.length);
      // Shared, not one console doing it all.
      expect(settled.a).toBeGreaterThan(0);
      expect(settled.b).toBeGreaterThan(0);
      const dropped = [await instance('A'), await instance('B')].map((i, n) => i.telemetry.dropped - before[n]!.telemetry.dropped);
      expect(dropped).toEqual([0, 0]);
    } finally {
      observer.end(true);
    }
  });

  describe('with a live device', () => {
    let deviceId: string;
    let organizationId: string;
    let folder: string;

    beforeAll(async () => {
      ({ id: deviceId, organizationId } = (await liveDevice('alternating')).device);
      folder = tempDir('fleetlink-two-files-');
      dirs.push(folder);
    }, 30_000);

    it('keeps one device the same whichever console changes or reads it', async () => {
      const changed = await call('A', 'PUT', `/api/device/${deviceId}`, { organization: organizationId, name: 'renamed at A', branch: 'PRODUCTION', description: 'from A', tags: ['two'] });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      const read = deviceSchema.parse((await call('B', 'GET', `/api/device/${deviceId}`)).body);
      expect(read).toMatchObject({ name: 'renamed at A', description: 'from A', tags: ['two'], online: true });
      const found = (await call('A', 'GET', `/api/devices?${new URLSearchParams({ search: 'renamed' })}`)).body as { devices: { id: string }[] };
      expect(found.devices.map((d) => d.id)).toContain(deviceId);
    });

    it('answers a command to the console it was asked at, while the other runs too', async () => {
      const runs = await Promise.all((['A', 'B', 'A', 'B'] as const).map((which, i) => command(which, deviceId, `echo ${which}${i}`)));
      runs.forEach((run, i) => {
        expect(run.status, JSON.stringify(run.body)).toBe(200);
        expect(commandOutputSchema.parse(run.body).stdout.trim()).toBe(`${i % 2 ? 'B' : 'A'}${i}`);
      });
    });

    it('lists at A, uploads through B and downloads through A, the bytes unchanged', async () => {
      writeFileSync(path.join(folder, 'seen.txt'), 'listed');
      const listed = await call('A', 'POST', `/api/device/${deviceId}/command`, { name: 'file', parameters: [{ name: 'path', value: folder }] });
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      expect(JSON.stringify(listed.body)).toContain('seen.txt');

      const data = randomBytes(3 * 1024 * 1024 + 7);
      const form = new FormData();
      form.append('path', folder);
      form.append('file', new Blob([data]), 'carried.bin');
      const uploaded = await fetch(`${urlOf('B')}/api/upload/${deviceId}`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form });
      expect(uploaded.status, await uploaded.clone().text()).toBe(201);
      expect(sha256(readFileSync(path.join(folder, 'carried.bin')))).toBe(sha256(data));

      const link = await call('A', 'GET', `/api/request-download/${deviceId}?${new URLSearchParams({ path: path.join(folder, 'carried.bin') })}`, undefined, user);
      expect(link.status, String(link.body)).toBe(200);
      // The browser follows the link through the balancer, to whichever console.
      const got = await fetch(`${lb.url}${link.body as string}`);
      expect(got.status).toBe(200);
      expect(sha256(Buffer.from(await got.arrayBuffer()))).toBe(sha256(data));
    });

    it('reads at A the value of a monitor made at B', async () => {
      mkdirSync(path.join(folder, 'watched'));
      writeFileSync(path.join(folder, 'watched', 'size.txt'), 'x'.repeat(1234));
      const made = await call('B', 'POST', `/api/device/${deviceId}/monitor`, { name: 'size at B', type: 'SIZE', path: path.join(folder, 'watched', 'size.txt') });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      await waitFor(async () => {
        const device = deviceSchema.parse((await call('A', 'GET', `/api/device/${deviceId}`)).body);
        return device.monitors.find((m) => m.name === 'size at B')?.value === '1234';
      }, 15_000, 'the monitor value at A');
    });

    it('connects a tunnel made at B from A, and a request goes through the proxy', async () => {
      const made = await call('B', 'POST', `/api/device/${deviceId}/tunnel`, { port: service.port, path: 'both' });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const tunnel = tunnelSchema.parse(made.body);
      const started = await call('A', 'POST', `/api/device/${deviceId}/tunnel/${tunnel.id}/start`);
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      expect(tunnelStatusSchema.parse(started.body)).toMatchObject({ state: 'CONNECTED' });
      const through = await waitFor(async () => {
        const r = await ingressGet(ports.http, `both.${DOMAIN}`);
        return r.status === 200 && r;
      }, 10_000, 'a request through the tunnel');
      expect(through.body).toContain('Hello through two consoles');
    });

    it('makes last month’s invoices once when both consoles are asked at the same time', async () => {
      await b.database.db.execute(sql`update device_lifetimes set started_at = now() - interval '70 days' where device_id = ${deviceId}`);
      const runs = await Promise.all([call('A', 'GET', '/api/invoice/create'), call('B', 'GET', '/api/invoice/create')]);
      for (const run of runs) expect(run.status, JSON.stringify(run.body)).toBe(200);
      const { rows } = await b.database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from invoices group by organization_id, period having count(*) > 1`,
      );
      expect(rows).toEqual([]);
      const made = await b.database.db.execute<{ n: number }>(sql`select count(*)::int as n from invoices`);
      expect(made.rows[0]!.n).toBeGreaterThan(0);
    });

    it('writes each action once into one audit trail, whichever console did it', async () => {
      // This device's entries (the raced device above has its own).
      const entries = async (kind: string) =>
        ((await call('B', 'GET', `/api/audit?${new URLSearchParams({ kind })}`)).body as { entries: { details: Record<string, unknown> }[] }).entries.filter((e) =>
          JSON.stringify(e).includes(deviceId),
        );
      expect(await entries('device.update')).toHaveLength(1);
      expect(await entries('file.upload')).toHaveLength(1);
      expect(await entries('file.download')).toHaveLength(1);
      expect(await entries('monitor.create')).toHaveLength(1);
      expect(await entries('tunnel.connect')).toHaveLength(1);
      const commands = (await entries('command')).filter((e) => JSON.stringify(e.details).includes('echo'));
      expect(commands).toHaveLength(4);
    });

    it('loses only the call in flight when A is killed: agents stay, B serves, A restarted joins again', async () => {
      // (Its outcome taken at once: it fails while A is being killed, before anything awaits it.)
      const inFlight = command('A', deviceId, 'sleep 3; echo finished').then((answer) => answer, (err: Error) => err);
      await new Promise((r) => setTimeout(r, 700));
      await a.kill('SIGKILL');
      // The caller at A gets a connection error, never a wrong answer.
      expect(await inFlight).toBeInstanceOf(TypeError);
      expect(String(((await inFlight) as Error).cause)).toMatch(/other side closed|ECONNRESET/);
      // As a balancer's health check would: A is out.
      lb.backends = [ports.b];
      const periods = async () =>
        (await b.database.db.execute<{ n: number }>(sql`select count(*)::int as n from device_online_periods where device_id = ${deviceId} and "end" is null`)).rows[0]!.n;
      // The agent talks to Mosquitto, not to A: still online, one open online period, and it answers B.
      expect((await deviceRow(b.database.db, deviceId)).online).toBe(true);
      expect(await periods()).toBe(1);
      const atB = await command('B', deviceId, 'echo still here');
      expect(atB.status, JSON.stringify(atB.body)).toBe(200);
      expect(commandOutputSchema.parse(atB.body).stdout.trim()).toBe('still here');
      // The command A was running finishes on the device; its answer goes to A's reply topic, which nobody reads.
      await new Promise((r) => setTimeout(r, 3000));
      expect((await deviceRow(b.database.db, deviceId)).online).toBe(true);

      a = await startConsoleA();
      lb.backends = [ports.a, ports.b];
      const atA = await waitFor(async () => {
        const r = await command('A', deviceId, 'echo back');
        return r.status === 200 && r;
      }, 20_000, 'A answering again');
      expect(commandOutputSchema.parse(atA.body).stdout.trim()).toBe('back');
      expect(await periods()).toBe(1);
    });
  });

  it("tells a page on either console what the other learned: a device's states and a person's change (issue 61)", async () => {
    // Both pages as the balancer's origin would open them (PUBLIC_URL), one at each console.
    // (Its organization is made first: a page learns of organizations it joins through the console's API.)
    const device = await memberDevice(b.database.db, 'watched live');
    const origin = new URL(lb.url).origin;
    const [onA, onB] = await Promise.all([openLive(urlOf('A'), user, { origin }), openLive(urlOf('B'), user, { origin })]);
    try {
      const dataDir = tempDir('fleetlink-agent-');
      dirs.push(dataDir);
      const agent = spawnAgent({ server: lb.url, device: device.id, key: device.key, dataDir });
      agents.push(agent);
      // The online state went to one console (a shared subscription); both pages heard it.
      await Promise.all([onA.next(sawOnline(true, device.id), 10_000, 0), onB.next(sawOnline(true, device.id), 10_000, 0)]);
      const from = [onA.messages.length, onB.messages.length];
      await agent.kill();
      await Promise.all([onA.next(sawOnline(false, device.id), 6000, from[0]), onB.next(sawOnline(false, device.id), 6000, from[1])]);
      // And it stays offline: a heartbeat one console still held must not bring it back (it did, until this test).
      await new Promise((r) => setTimeout(r, 2500));
      expect((await deviceRow(b.database.db, device.id)).online).toBe(false);
      expect(onA.changes().filter((c) => c.id === device.id).at(-1)).toMatchObject({ online: false });
      // A person's change at A reaches the page at B.
      const renamedFrom = onB.messages.length;
      const renamed = await call('A', 'PUT', `/api/device/${device.id}`, { name: 'renamed live', tags: [], branch: 'PRODUCTION', organization: device.organizationId });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      await onB.next((m) => m.type === 'devices' && m.changes.some((c) => c.id === device.id && c.parts.includes('settings')), 3000, renamedFrom);
    } finally {
      onA.close();
      onB.close();
    }
  });

  it('checks an API token at either console: made at A, used at B, one rate limit and one last use for both, revoked at B refused at A at once (issue 62)', async () => {
    const made = await call('A', 'POST', '/api/api-tokens', { name: 'two consoles', scope: 'READ' }, user);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { id, secret } = made.body as { id: string; secret: string };
    expect((await call('B', 'GET', '/api/me', undefined, secret)).body).toMatchObject({ username: USER_EMAIL });
    const lastUse = async () => (await b.database.db.select().from(apiTokens).where(eq(apiTokens.id, id)))[0]!.lastUsedAt;
    const firstUse = await lastUse();
    expect(firstUse).not.toBeNull();
    expect((await call('A', 'GET', '/api/me', undefined, secret)).status).toBe(200);
    // Written at most once a minute, whichever console the calls reach.
    expect(await lastUse()).toEqual(firstUse);
    const newAddress = await b.database.db.execute(sql`select count(*)::int as n from audit_entries where kind = 'api-token.new-address' and details->>'tokenId' = ${id}`);
    expect(newAddress.rows[0]).toEqual({ n: 1 });

    // API_TOKEN_RATE_LIMIT is 20 a minute for the token, counted together: 2 calls so far.
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await call(i % 2 ? 'B' : 'A', 'GET', '/api/me', undefined, secret)).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(18);
    expect(statuses.slice(18)).toEqual([429, 429]);

    expect((await call('B', 'DELETE', `/api/api-tokens/${id}`, undefined, user)).status).toBe(204);
    const refused = await call('A', 'GET', '/api/me', undefined, secret);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toMatch(/^This API token was revoked on /);
  });

  it('refuses at B a member revoked at A at once, and finds at B a device renamed at A at once (issue 69)', async () => {
    const device = await memberDevice(b.database.db, 'read across consoles');
    // B has checked user@'s token and read the device for them: nothing of that may outlive the change.
    expect((await call('B', 'GET', `/api/device/${device.id}`, undefined, user)).status).toBe(200);
    const [member] = await b.database.db
      .select({ id: organizationMembers.id })
      .from(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, device.organizationId), eq(organizationMembers.email, USER_EMAIL)));
    expect((await call('A', 'DELETE', `/api/organization/${device.organizationId}/user/${member!.id}`)).status).toBe(204);
    expect((await call('B', 'GET', `/api/device/${device.id}`, undefined, user)).status).toBe(404);
    expect((await call('B', 'GET', `/api/device/${device.id}/metrics`, undefined, user)).status).toBe(404);

    const name = `renamed-${randomUUID().slice(0, 8)}`;
    const form = { organization: device.organizationId, name, branch: 'PRODUCTION', tags: [] };
    expect((await call('A', 'PUT', `/api/device/${device.id}`, form)).status).toBe(200);
    const found = await call('B', 'GET', `/api/devices?search=${name}`);
    expect(found.body.devices.map((d: { name: string }) => d.name)).toEqual([name]);
    expect(found.body.estimated).toEqual({ ALL: false, ONLINE: false, OFFLINE: false });
  });

  it('opens a terminal whose relay reached the other console: it is handed over; the per-device cap counts both consoles (issue 63)', async () => {
    const { device } = await liveDevice('terminal across consoles');
    const origin = new URL(lb.url).origin;
    const backends = lb.backends;
    const opened: TerminalClient[] = [];
    try {
      // The page at one console, the agent's relay sent by the balancer to the other.
      for (const [page, relay] of [['A', ports.b], ['B', ports.a]] as const) {
        lb.backends = [relay];
        const t = await openTerminal(urlOf(page), device.id, admin, { origin });
        opened.push(t);
        expect(t.events, `page at ${page}`).toMatchObject([{ type: 'ready' }]);
        t.type(`echo page-at-"${page}"\r`);
        await t.waitFor(new RegExp(`page-at-${page}`));
      }
      lb.backends = backends;
      // Two sessions open (one per console): two more anywhere, then the fifth is refused.
      opened.push(await openTerminal(urlOf('A'), device.id, admin, { origin }), await openTerminal(urlOf('B'), device.id, admin, { origin }));
      expect(opened.every((t) => t.events[0]?.type === 'ready')).toBe(true);
      const fifth = await openTerminal(urlOf('A'), device.id, admin, { origin });
      expect(await fifth.closed).toMatchObject({ code: TerminalClose.Conflict });
      // The shell's exit comes back across the handover.
      opened[0]!.type('exit\r');
      expect(await opened[0]!.closed).toMatchObject({ code: TerminalClose.Ended, reason: 'The shell exited with code 0.' });
    } finally {
      lb.backends = backends;
      opened.forEach((t) => t.close());
    }
  });

  it('sends each device of a job once with two consoles, and completes a job whose console was killed holding a claim (issue 64)', async () => {
    const tag = `two-job-${randomBytes(3).toString('hex')}`;
    const targets: string[] = [];
    for (const name of ['job one', 'job two', 'job three']) targets.push((await liveDevice(name)).device.id);
    const db = b.database.db;
    await db.update(devices).set({ tags: [tag] }).where(inArray(devices.id, targets));
    const marks = tempDir('fleetlink-two-jobs-');
    dirs.push(marks);
    const job = (which: 'A' | 'B', shell: string) =>
      call(which, 'POST', '/api/jobs', { command: { name: 'execute', parameters: [{ name: 'command', value: shell }, { name: 'timeout', value: '5' }] }, target: { kind: 'tag', tag } });
    const results = async (jobId: string) => db.select().from(jobResults).innerJoin(jobRuns, eq(jobRuns.id, jobResults.runId)).where(eq(jobRuns.jobId, jobId));
    const ended = (jobId: string, ms: number) =>
      waitFor(async () => {
        const got = await call('B', 'GET', `/api/jobs/${jobId}`);
        return got.body.runs?.[0]?.state === 'finished' && got.body;
      }, ms, 'the run ended');

    // Made at A; each console sends one at a time, so both take a share; each device runs once.
    const once = path.join(marks, 'once');
    const first = await job('A', `sleep 1; echo ran >> ${once}`);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect((await ended(first.body.id, 30_000)).runs[0].counts).toMatchObject({ succeeded: 3, failed: 0 });
    expect(readFileSync(once, 'utf8')).toBe('ran\nran\nran\n');
    expect(new Set((await results(first.body.id)).map((r) => r.job_results.claimedBy)).size).toBe(2);
    const sent = await db
      .select({ deviceId: auditEntries.deviceId })
      .from(auditEntries)
      .where(and(eq(auditEntries.kind, 'command'), sql`${auditEntries.details}->>'jobId' = ${first.body.id}`));
    expect(sent.map((e) => e.deviceId).sort()).toEqual([...targets].sort());

    // Killed while both consoles hold a claim: the one A held lapses and is failed with the reason; B does the rest.
    const second = await job('B', `sleep 2; echo ran >> ${path.join(marks, 'twice')}`);
    expect(second.status).toBe(201);
    await waitFor(async () => new Set((await results(second.body.id)).filter((r) => r.job_results.state === 'running').map((r) => r.job_results.claimedBy)).size === 2, 10_000, 'both consoles sending');
    await a.kill('SIGKILL');
    lb.backends = [ports.b];
    try {
      const done = await ended(second.body.id, 40_000);
      expect(done.runs[0].counts).toMatchObject({ succeeded: 2, failed: 1, running: 0, queued: 0 });
      const failed = (await results(second.body.id)).find((r) => r.job_results.state === 'failed')!;
      expect(failed.job_results.reason).toBe('The console sending it stopped before the device answered: it may or may not have run.');
    } finally {
      a = await startConsoleA();
      lb.backends = [ports.a, ports.b];
    }
  }, 120_000);

  it('starts each wave of a rollout once with two consoles ticking, and tells a page on the other console (issue 65)', async () => {
    // Early-access devices (no agents: waves move on by time alone), a release made at B, watched at A.
    for (const name of ['wave one', 'wave two', 'wave three']) {
      const device = await memberDevice(b.database.db, name);
      await b.database.db.update(devices).set({ branch: 'ACCEPTANCE' }).where(eq(devices.id, device.id));
    }
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(tarGz([manifest('fleetlink-agent', '9.1.0'), { path: 'cli.mjs', body: 'export {}' }]))]), 'bundle.tar.gz');
    expect((await fetch(`${urlOf('A')}/api/bundle`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form })).status).toBe(201);
    const page = await openLive(urlOf('A'), admin, { origin: new URL(lb.url).origin });
    try {
      const rollout = { mode: 'waves', waves: [{ unit: 'devices', amount: 1 }, { unit: 'devices', amount: 2 }, { unit: 'percent', amount: 100 }], waitMinutes: 0.02, failurePercent: 5, failureCount: 2 };
      const released = await call('B', 'POST', '/api/release', { version: '9.1.0', branch: 'ACCEPTANCE', bundles: [{ name: 'fleetlink-agent', version: '9.1.0' }], rollout });
      expect(released.status, JSON.stringify(released.body)).toBe(201);
      await page.next((m) => m.type === 'releases', 5000, 0);
      const done = await waitFor(async () => {
        const list = await call('A', 'GET', '/api/releases');
        const found = (list.body as { version: string; rollout: { state: string } | null }[]).find((r) => r.version === '9.1.0');
        return found?.rollout?.state === 'DONE' && found.rollout;
      }, 30_000, 'the rollout done');
      expect(done).toMatchObject({ wave: 3 });
      // Both consoles ticked every 100 ms; each wave after the first was started once.
      const starts = await b.database.db
        .select({ details: auditEntries.details })
        .from(auditEntries)
        .where(and(eq(auditEntries.kind, 'rollout.wave'), sql`${auditEntries.details}->>'version' = '9.1.0'`));
      expect(starts.map((e) => (e.details as { wave: number }).wave).sort()).toEqual([2, 3]);
    } finally {
      page.close();
    }
  });

  it('fires each event of an alert rule once with two consoles evaluating, and rings the bell heard at the other (issue 66)', async () => {
    const receiver = await startWebhookReceiver();
    const page = await openLive(urlOf('B'), admin, { origin: new URL(lb.url).origin });
    try {
      const device = await memberDevice(b.database.db, 'alerted twice?');
      const db = b.database.db;
      await db.update(devices).set({ online: true, lastResponse: new Date() }).where(eq(devices.id, device.id));
      const rule = await call('A', 'POST', `/api/organization/${device.organizationId}/alert-rules`, {
        name: 'Two consoles',
        condition: { kind: 'DEVICE_OFFLINE', minutes: 0.05 },
        webhookUrl: receiver.url,
      });
      expect(rule.status, JSON.stringify(rule.body)).toBe(201);
      const from = page.messages.length;
      await db.update(devices).set({ online: false, lastResponse: new Date() }).where(eq(devices.id, device.id));
      await receiver.waitFor(1, 10_000);
      await page.next((m) => m.type === 'alerts', 5000, from);
      await db.update(devices).set({ online: true, lastResponse: new Date() }).where(eq(devices.id, device.id));
      await receiver.waitFor(2, 10_000);
      await new Promise((r) => setTimeout(r, 1500));
      expect(receiver.got.map((g) => g.body.type)).toEqual(['device.offline', 'device.online']);
      const bell = (await call('B', 'GET', '/api/alerts')).body as { items: { rule: { id: string }; type: string }[] };
      expect(bell.items.filter((i) => i.rule.id === rule.body.id).map((i) => i.type)).toEqual(['device.online', 'device.offline']);
    } finally {
      page.close();
      await receiver.close();
    }
  });

  it("says the same of the proxy at both consoles, whichever its calls reach, and both are ready (issue 67)", async () => {
    // Its calls go through the balancer to either console; each notes them in the database.
    const cards = await waitFor(async () => {
      const both = await Promise.all((['A', 'B'] as const).map(async (which) => serverSchema.parse((await call(which, 'GET', `/api/server/${proxyServerId}`)).body)));
      return both.every((c) => c.connection?.state === 'CONNECTED') && both;
    }, 10_000, 'the proxy connected at both consoles');
    expect(cards[0]!.connection).toEqual(cards[1]!.connection);
    for (const which of ['A', 'B'] as const) {
      expect((await call(which, 'GET', '/api/ready')).body).toEqual({ status: 'ready', messageServers: { connected: 1, total: 1 } });
    }
  });

  // Last: it leaves this address without enrollments for a minute.
  it('holds the enrollment limit of one address across both consoles', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await fetch(`${urlOf(i % 2 ? 'B' : 'A')}/api/agent/enroll`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ deviceId: randomUUID(), key: 'guessed', agent: { version: 'test', hostname: 'guessing' } }),
      });
      statuses.push(res.status);
    }
    // ENROLL_RATE_LIMIT is 10 a minute, counted together (the suite's own agents enrolled from here
    // too): counted by each console apart, twelve tries split over two would all pass.
    expect(statuses.filter((s) => s !== 429).length).toBeLessThanOrEqual(10);
    expect(statuses.at(-1)).toBe(429);
  });
});
