import { rmSync } from 'node:fs';
import mqtt from 'mqtt';
import { agentClientId, agentPropertyKeys, topics } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestConsole } from '../../testing/test-console.js';
import { AGENT_NODE_VERSION, createDevice, startAgentTestConsole, deviceRow, enrollByHand, nodeFlagsOf, spawnAgent, startArgsOf, tempDir, waitFor, type AgentProcess } from './broker.test-support.js';

/** Console + embedded broker + the real agent CLI as a child process. */
describe('agent against the embedded broker', () => {
  let tc: TestConsole;
  let admin: string;
  let dataDir: string;
  let agent: AgentProcess | undefined;
  const dirs: string[] = [];

  beforeAll(async () => {
    tc = await startAgentTestConsole({ ENROLL_RATE_LIMIT: '50' });
    admin = await tc.token('admin@fleetlink.local');
    dataDir = tempDir('fleetlink-agent-');
    dirs.push(dataDir);
  });

  afterAll(async () => {
    await agent?.kill();
    await tc?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('refuses an unknown device and a wrong key clearly', async () => {
    const dev = await createDevice(tc.database.db);
    const unknown = await tc.api('/api/agent/enroll', { method: 'POST', json: { deviceId: '00000000-0000-4000-8000-000000000000', key: 'x' } });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).message).toMatch(/no device with this id/);
    const wrong = await tc.api('/api/agent/enroll', { method: 'POST', json: { deviceId: dev.id, key: 'nope' } });
    expect(wrong.status).toBe(403);
    expect((await wrong.json()).message).toMatch(/installation key is not valid/);
  });

  it('registers the embedded broker as the default message server', async () => {
    const res = await tc.api('/api/servers', { token: admin });
    const list = await res.json();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ type: 'MESSAGE', status: 'ONLINE', maxCapacity: 100, connected: true });
  });

  it('enrolls, comes online with its properties, metrics and latency; offline when killed, online when restarted', async () => {
    const dev = await createDevice(tc.database.db);
    const started = Date.now();
    agent = spawnAgent({ server: tc.url, device: dev.id, key: dev.key, dataDir });
    await waitFor(async () => (await deviceRow(tc.database.db, dev.id)).online, 10_000, 'device online');
    expect(Date.now() - started).toBeLessThan(10_000);
    const row = await waitFor(async () => {
      const r = await deviceRow(tc.database.db, dev.id);
      return r.properties && r.latency !== null ? r : undefined;
    }, 10_000, 'properties and latency');
    for (const key of agentPropertyKeys) expect(row.properties, key).toHaveProperty([key]);
    expect(row.properties!['java.name']).toBe('Node.js');
    expect(row.properties!['java.version']).toBe(AGENT_NODE_VERSION);
    expect(row.addresses.length).toBeGreaterThan(0);
    expect(row.drives.length).toBeGreaterThan(0);
    // bin/supervise.mjs starts the agent with the flags of bin/node-flags.mjs.
    const flags = nodeFlagsOf();
    expect(startArgsOf(await agent.workerPid(), flags.length)).toEqual(flags);

    const user = await tc.token('admin@fleetlink.local');
    // Not a member of the device's organization: 404, never its data.
    expect((await tc.api(`/api/device/${dev.id}/metrics`, { token: user })).status).toBe(404);

    await waitFor(async () => {
      const { deviceMetrics } = await import('../../db/schema/index.js');
      const rows = await tc.database.db.select().from(deviceMetrics);
      return rows.some((r) => r.deviceId === dev.id);
    }, 5000, 'a load sample');

    await agent.kill('SIGKILL');
    const killedAt = Date.now();
    await waitFor(async () => !(await deviceRow(tc.database.db, dev.id)).online, 8000, 'device offline');
    expect(Date.now() - killedAt).toBeLessThan(8000);

    // Restarted without the key: it runs on the stored credentials.
    agent = spawnAgent({ server: tc.url, device: dev.id, dataDir });
    await waitFor(async () => (await deviceRow(tc.database.db, dev.id)).online, 10_000, 'device online again');

    const { deviceOnlinePeriods } = await import('../../db/schema/index.js');
    const periods = (await tc.database.db.select().from(deviceOnlinePeriods)).filter((p) => p.deviceId === dev.id);
    expect(periods).toHaveLength(2);
    expect(periods.filter((p) => p.end === null)).toHaveLength(1);

    // Broker restart: agent and hub come back without a console restart.
    const broker = tc.messaging!.broker!;
    await broker.stop();
    await waitFor(() => tc.messaging!.hub.isConnected(tc.messaging!.embeddedServerId!) === false, 5000, 'hub disconnected');
    await broker.start();
    await waitFor(() => tc.messaging!.hub.isConnected(tc.messaging!.embeddedServerId!), 10_000, 'hub reconnected');
    // The agent is back when it answers a request through the hub again.
    await waitFor(() => tc.messaging!.hub.ping(dev.id).catch(() => undefined), 15_000, 'agent reconnected');
    expect((await deviceRow(tc.database.db, dev.id)).online).toBe(true);
  }, 60_000);

  it('refuses another device\'s topics and drops malformed payloads', async () => {
    const a = await createDevice(tc.database.db);
    const b = await createDevice(tc.database.db);
    const { username, password, url } = await enrollByHand(tc, a);
    const client = await mqtt.connectAsync(url, { username, password, protocolVersion: 4, reconnectPeriod: 0, clientId: agentClientId(a.id) });
    // SUBACK 128: refused, and the client stays connected.
    await expect(client.subscribeAsync(topics.request(b.id), { qos: 1 })).rejects.toThrow(/Subscribe error/);
    await expect(client.subscribeAsync(`fl/d/+/state`, { qos: 1 })).rejects.toThrow(/Subscribe error/);
    const own = await client.subscribeAsync(topics.request(a.id), { qos: 1 });
    expect(own[0]!.qos).toBe(1);
    // Malformed payloads on its own topics are dropped; the hub keeps working.
    await client.publishAsync(topics.properties(a.id), 'not json', { qos: 1 });
    await client.publishAsync(topics.metrics(a.id), JSON.stringify({ time: 'yesterday', systemLoad: 7 }), { qos: 1 });
    await client.publishAsync(topics.state(a.id), JSON.stringify({ online: true }), { qos: 1 });
    await waitFor(async () => (await deviceRow(tc.database.db, a.id)).online, 5000, 'device a online');
    // Publishing as device b is refused (the broker drops the connection).
    client.publish(topics.state(b.id), JSON.stringify({ online: true }), { qos: 0 });
    await new Promise((r) => setTimeout(r, 500));
    expect((await deviceRow(tc.database.db, b.id)).online).toBe(false);
    await client.endAsync(true);
    // A wrong password is refused.
    const bad = mqtt.connect(url, { username: a.id, password: 'wrong', protocolVersion: 4, reconnectPeriod: 0, clientId: agentClientId(a.id) });
    const err = await new Promise<Error>((resolve) => bad.once('error', resolve));
    expect(err.message).toMatch(/Bad username or password|Not authorized/i);
    bad.end(true);
  }, 30_000);
});
