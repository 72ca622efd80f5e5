import { rmSync } from 'node:fs';
import mqtt from 'mqtt';
import { agentClientId, topics } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type TestConsole } from '../../testing/test-console.js';
import { createDevice, startAgentTestConsole, deviceRow, enrollByHand, mosquittoBin, registerMosquitto, spawnAgent, startMosquitto, tempDir, waitFor, type AgentProcess, type MosquittoProcess } from './broker.test-support.js';
import { deviceRole } from './dynsec.js';
import { DeviceCredentials } from '../enrollment/credentials.js';

const bin = mosquittoBin();

/**
 * The same console and agent against a real Mosquitto 2 with dynamic security (deploy/mosquitto),
 * which the hub manages: migration from the embedded broker, device isolation, broker restart.
 */
describe.skipIf(!bin)('agent against Mosquitto with dynamic security', () => {
  let tc: TestConsole;
  let admin: string;
  let mosquitto: MosquittoProcess;
  let mosquittoServerId: string;
  const agents: AgentProcess[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    mosquitto = await startMosquitto(bin!, await freePort());
    tc = await startAgentTestConsole();
    admin = await tc.token('admin@fleetlink.local');
  });

  afterAll(async () => {
    for (const a of agents) await a.kill();
    await tc?.close();
    await mosquitto?.dispose();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('registers Mosquitto as a message server; the hub connects with its admin account', async () => {
    mosquittoServerId = await registerMosquitto(tc, mosquitto, admin);
    await waitFor(() => tc.messaging!.hub.isConnected(mosquittoServerId), 10_000, 'hub connected to mosquitto');
  });

  it('migrates a running agent from the embedded broker to Mosquitto', async () => {
    const dev = await createDevice(tc.database.db);
    const dataDir = tempDir('fleetlink-agent-');
    dirs.push(dataDir);
    // The embedded server is the less loaded one? Both are empty: the older one (embedded) wins,
    // once the hub is back on it after the registration (an unreachable server is passed over).
    await waitFor(() => tc.messaging!.hub.isConnected(tc.messaging!.embeddedServerId!), 10_000, 'hub reconnected to the embedded broker');
    const agent = spawnAgent({ server: tc.url, device: dev.id, key: dev.key, dataDir });
    agents.push(agent);
    await waitFor(async () => (await deviceRow(tc.database.db, dev.id)).online, 10_000, 'online on the embedded broker');
    const embeddedId = tc.messaging!.embeddedServerId!;
    const moved = await tc.api(`/api/server-migrate/${dev.id}/${embeddedId}/${mosquittoServerId}`, { token: admin, method: 'POST' });
    expect(moved.status).toBe(200);
    expect((await moved.json()).map((s: { id: string }) => s.id)).toContain(mosquittoServerId);
    // Online there within seconds: it answers a ping sent through Mosquitto.
    const via = tc.messaging!.hub.connection(mosquittoServerId)!;
    await waitFor(() => tc.messaging!.hub.ping(dev.id, via).catch(() => undefined), 15_000, 'agent answering through Mosquitto');
    expect((await deviceRow(tc.database.db, dev.id)).online).toBe(true);

    // Issue 57: nothing of it stays on the server it left, there or on the way back.
    const account = (await (await DeviceCredentials.open(tc.database.db, tc.box)).current(dev.id))!;
    const login = (url: string) =>
      mqtt.connectAsync(url, { ...account, clientId: agentClientId(dev.id), protocolVersion: 4, reconnectPeriod: 0 }).then(
        (c) => (c.end(true), 'connected'),
        (err: Error) => err.message,
      );
    const embeddedUrl = tc.messaging!.broker!.url;
    expect(await login(embeddedUrl)).toMatch(/Bad username or password/);
    const back = await tc.api(`/api/server-migrate/${dev.id}/${mosquittoServerId}/${embeddedId}`, { token: admin, method: 'POST' });
    expect(back.status).toBe(200);
    await waitFor(() => tc.messaging!.hub.ping(dev.id, tc.messaging!.hub.connection(embeddedId)!).catch(() => undefined), 15_000, 'agent answering through the embedded broker');
    expect(await login(mosquitto.url)).toMatch(/Bad username or password|Not authorized/);
  }, 60_000);

  it('enrolls a new device onto Mosquitto, isolates it, and recovers from a broker restart', async () => {
    // Only Mosquitto takes new devices now.
    const embedded = await (await tc.api(`/api/server/${tc.messaging!.embeddedServerId}`, { token: admin })).json();
    const reject = await tc.api(`/api/server/${embedded.id}`, {
      token: admin,
      method: 'PUT',
      json: {
        ...embedded,
        // A built-in server: its status is the administrator's, the rest the console's own.
        status: 'ONLINE_REJECT_NEW_DEVICES',
      },
    });
    expect(reject.status).toBe(200);
    await waitFor(() => tc.messaging!.hub.isConnected(mosquittoServerId), 10_000, 'hub reconnected after the change');

    const dev = await createDevice(tc.database.db);
    const other = await createDevice(tc.database.db);
    const dataDir = tempDir('fleetlink-agent-');
    dirs.push(dataDir);
    const agent = spawnAgent({ server: tc.url, device: dev.id, key: dev.key, dataDir });
    agents.push(agent);
    await waitFor(async () => (await deviceRow(tc.database.db, dev.id)).online, 10_000, 'online on Mosquitto');
    const servers = await (await tc.api(`/api/device/${dev.id}/servers`, { token: admin })).json();
    expect(servers.map((s: { id: string }) => s.id)).toEqual([mosquittoServerId]);
    await waitFor(async () => (await deviceRow(tc.database.db, dev.id)).properties, 5000, 'properties');

    // Isolation: a device's account reaches only its own topics (a third device, by hand: the
    // agent's account connects only with the agent's client id, which would push the agent off).
    const probe = await createDevice(tc.database.db);
    const { username, password } = await enrollByHand(tc, probe);
    const client = await mqtt.connectAsync(mosquitto.url, { username, password, protocolVersion: 4, reconnectPeriod: 0, clientId: agentClientId(probe.id) });
    await expect(client.subscribeAsync(topics.request(other.id), { qos: 1 })).rejects.toThrow(/Subscribe error/);
    await client.publishAsync(topics.state(other.id), JSON.stringify({ online: true }), { qos: 1 }).catch(() => {});
    await new Promise((r) => setTimeout(r, 500));
    expect((await deviceRow(tc.database.db, other.id)).online).toBe(false);
    await client.endAsync(true);

    // Broker restart: hub and agent reconnect without a console restart.
    const sessions = () => tc.messaging!.hub.sessionCounts().get(mosquittoServerId) ?? 0;
    const sessionsBefore = sessions();
    await mosquitto.stop();
    await waitFor(() => tc.messaging!.hub.isConnected(mosquittoServerId) === false, 5000, 'hub disconnected');
    await mosquitto.start();
    await waitFor(() => tc.messaging!.hub.isConnected(mosquittoServerId), 15_000, 'hub reconnected');
    await waitFor(() => tc.messaging!.hub.ping(dev.id).catch(() => undefined), 15_000, 'agent back on Mosquitto');
    // One session a restart: its set-up (the console's role, there already) does not make Mosquitto drop it.
    expect(sessions()).toBe(sessionsBefore + 1);

    // Killed agent: its last will marks it offline.
    await agent.kill('SIGKILL');
    await waitFor(async () => !(await deviceRow(tc.database.db, dev.id)).online, 10_000, 'offline after kill');
  }, 90_000);

  it('binds device accounts provisioned before client ids were bound, when the hub connects', async () => {
    // A device account as an older console made it: its role, but no client id.
    const dev = await createDevice(tc.database.db);
    const password = 'older-console-password';
    const via = tc.messaging!.hub.connection(mosquittoServerId)!;
    const made = await via.dynsec([
      { command: 'createRole', rolename: deviceRole(dev.id) },
      { command: 'createClient', username: dev.id, password, roles: [{ rolename: deviceRole(dev.id) }] },
    ]);
    expect(made.map((r) => r.error)).toEqual([undefined, undefined]);
    const intruder = await mqtt.connectAsync(mosquitto.url, { username: dev.id, password, protocolVersion: 4, reconnectPeriod: 0, clientId: 'any-id' });
    await intruder.endAsync(true);

    await tc.messaging!.hub.reload();
    const client = await waitFor(async () => {
      const c = tc.messaging!.hub.connection(mosquittoServerId)!;
      if (!c.connected) return undefined;
      const [r] = await c.dynsec([{ command: 'getClient', username: dev.id }]);
      const found = (r?.data as { client?: { clientid?: string } } | undefined)?.client;
      return found?.clientid ? found : undefined;
    }, 10_000, 'client id bound');
    expect(client.clientid).toBe(agentClientId(dev.id));
    const refused = await mqtt
      .connectAsync(mosquitto.url, { username: dev.id, password, protocolVersion: 4, reconnectPeriod: 0, clientId: 'any-id' })
      .catch((err: Error) => err);
    expect(refused).toBeInstanceOf(Error);
    const own = await mqtt.connectAsync(mosquitto.url, { username: dev.id, password, protocolVersion: 4, reconnectPeriod: 0, clientId: agentClientId(dev.id) });
    await own.endAsync(true);
  }, 30_000);
});
