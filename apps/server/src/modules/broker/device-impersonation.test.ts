import { rmSync } from 'node:fs';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { agentClientId, readRequestEnvelope, topics, type RequestEnvelope } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceOnlinePeriods } from '../../db/schema/index.js';
import { freePort, type TestConsole } from '../../testing/test-console.js';
import {
  createDevice,
  deviceRow,
  enrollByHand,
  mosquittoBin,
  registerMosquitto,
  spawnAgent,
  startAgentTestConsole,
  startMosquitto,
  tempDir,
  waitFor,
  type AgentProcess,
} from './broker.test-support.js';

const bin = mosquittoBin();

/** Connects once, without retrying: the client, or the broker's refusal. */
async function connectOnce(url: string, opts: IClientOptions): Promise<MqttClient | Error> {
  return mqtt.connectAsync(url, { protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000, ...opts }).catch((err: Error) => err);
}

/** Counts the times a client loses its connection. */
function countDrops(client: MqttClient) {
  let drops = 0;
  client.on('close', () => drops++);
  return () => drops;
}

async function onlinePeriods(tc: TestConsole, deviceId: string) {
  return (await tc.database.db.select().from(deviceOnlinePeriods)).filter((p) => p.deviceId === deviceId).length;
}

/**
 * An enrolled device's credentials used as an attacker would (issue 22): logging in with the
 * console's client id or another device's must be refused by the broker itself, before it would
 * close the session that holds that id; and an answer to another device's request must not count.
 */
function impersonationSuite(setup: () => Promise<{ tc: TestConsole; serverId: string; dispose(): Promise<void> }>) {
  let tc: TestConsole;
  let serverId: string;
  let dispose: () => Promise<void>;
  const agents: AgentProcess[] = [];
  const clients: MqttClient[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    ({ tc, serverId, dispose } = await setup());
    await waitFor(() => tc.messaging!.hub.isConnected(serverId), 10_000, 'hub connected');
  });

  afterAll(async () => {
    for (const c of clients) await c.endAsync(true).catch(() => {});
    for (const a of agents) await a.kill();
    await tc?.close();
    await dispose?.();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("refuses a device's login with the console's client id or another device's, and both stay connected", async () => {
    const attacker = await createDevice(tc.database.db, 'attacker');
    const victim = await createDevice(tc.database.db, 'victim');
    // Enrolled, then renewed: the renewal provisions the account it already has on the broker again.
    const first = await enrollByHand(tc, attacker);
    const stolen = await enrollByHand(tc, { id: attacker.id, password: first.password });
    const dataDir = tempDir('fleetlink-agent-');
    dirs.push(dataDir);
    const agent = spawnAgent({ server: tc.url, device: victim.id, key: victim.key, dataDir });
    agents.push(agent);
    await waitFor(async () => (await deviceRow(tc.database.db, victim.id)).online, 15_000, 'victim online');
    await waitFor(() => tc.messaging!.hub.ping(victim.id).catch(() => undefined), 10_000, 'victim answering');
    const periodsBefore = await onlinePeriods(tc, victim.id);

    const hub = tc.messaging!.hub.connection(serverId)!;
    const hubDrops = countDrops(hub.client);
    const consoleClientId = hub.client.options.clientId!;
    expect(consoleClientId).toMatch(/^fleetlink-console-/);

    for (let i = 0; i < 5; i++) {
      for (const clientId of [consoleClientId, agentClientId(victim.id)]) {
        const result = await connectOnce(stolen.url, { username: stolen.username, password: stolen.password, clientId });
        if (!(result instanceof Error)) clients.push(result);
        expect(result, `login as ${clientId}`).toBeInstanceOf(Error);
        expect((result as Error).message).toMatch(/Identifier rejected|Not authorized/);
      }
    }
    // Its own client id still works: the account itself is fine.
    const own = await connectOnce(stolen.url, { username: stolen.username, password: stolen.password, clientId: agentClientId(attacker.id) });
    expect(own).not.toBeInstanceOf(Error);
    clients.push(own as MqttClient);

    // Nobody was pushed off: the hub never dropped, the victim never went offline and still answers.
    await new Promise((r) => setTimeout(r, 1000));
    expect(hubDrops()).toBe(0);
    expect(tc.messaging!.hub.isConnected(serverId)).toBe(true);
    expect((await deviceRow(tc.database.db, victim.id)).online).toBe(true);
    expect(await onlinePeriods(tc, victim.id)).toBe(periodsBefore);
    expect(agent.output()).not.toMatch(/connection error/);
    expect(await tc.messaging!.hub.ping(victim.id)).toBeGreaterThanOrEqual(0);
  }, 60_000);

  it('takes a reply only from the device the request went to', async () => {
    const forger = await createDevice(tc.database.db, 'forger');
    const target = await createDevice(tc.database.db, 'target');
    const hub = tc.messaging!.hub;
    // Both devices run by hand, so the test decides who answers what and when.
    const device = async (dev: { id: string; key: string }, answer?: (req: RequestEnvelope, client: MqttClient) => void) => {
      const account = await enrollByHand(tc, dev);
      const client = (await connectOnce(account.url, { username: account.username, password: account.password, clientId: agentClientId(dev.id) })) as MqttClient;
      expect(client).not.toBeInstanceOf(Error);
      clients.push(client);
      const requests: RequestEnvelope[] = [];
      client.on('message', (_topic, payload) => {
        const req = readRequestEnvelope(JSON.parse(payload.toString('utf8')));
        requests.push(req);
        answer?.(req, client);
      });
      await client.subscribeAsync(topics.request(dev.id), { qos: 1 });
      return { client, requests };
    };
    const reply = (client: MqttClient, replyTo: string, id: string, result: unknown) =>
      client.publishAsync(replyTo, JSON.stringify({ id, ok: true, result }), { qos: 1 });
    const forging = await device(forger, (req, client) => void reply(client, req.replyTo, req.id, 'pong'));
    const targeted = await device(target);
    await waitFor(() => hub.connectionOf(target.id).catch(() => undefined), 5000, 'target assigned');

    // The forger learns the reply address from a request of its own, and answers it normally.
    expect(await hub.request(forger.id, 'ping', {}, { timeoutMs: 5000 })).toBe('pong');
    const replyTo = forging.requests[0]!.replyTo;
    expect(replyTo).toBe(topics.reply(forger.id, hub.replyToken));
    expect(replyTo).not.toContain(hub.connection(serverId)!.client.options.clientId!);

    // A request to the target, answered first by the forger (with the target's request id, on the
    // forger's own reply topic, the only one its account may publish to), then by the target.
    const answer = hub.request(target.id, 'ping', {}, { timeoutMs: 5000 });
    const sent = await waitFor(() => targeted.requests[0], 5000, 'request at the target');
    await reply(forging.client, replyTo, sent.id, 'forged');
    await new Promise((r) => setTimeout(r, 500));
    await reply(targeted.client, sent.replyTo, sent.id, 'genuine');
    expect(await answer).toBe('genuine');

    // Unanswered by the target, a forged answer alone leaves the request to its deadline.
    const unanswered = hub.request(target.id, 'ping', {}, { timeoutMs: 1500 });
    const second = await waitFor(() => targeted.requests[1], 5000, 'second request at the target');
    await reply(forging.client, replyTo, second.id, 'forged');
    await expect(unanswered).rejects.toThrow('The device did not answer in time.');
  }, 30_000);
}

describe('device credentials on the embedded broker', () => {
  impersonationSuite(async () => {
    const tc = await startAgentTestConsole({ ENROLL_RATE_LIMIT: '50' });
    return { tc, serverId: tc.messaging!.embeddedServerId!, dispose: async () => {} };
  });
});

describe.skipIf(!bin)('device credentials on Mosquitto with dynamic security', () => {
  impersonationSuite(async () => {
    const mosquitto = await startMosquitto(bin!, await freePort());
    // No built-in broker: every device goes to Mosquitto.
    const tc = await startAgentTestConsole({ MQTT_EMBEDDED_PORT: '0', ENROLL_RATE_LIMIT: '50' });
    const serverId = await registerMosquitto(tc, mosquitto, await tc.token('admin@fleetlink.local'));
    return { tc, serverId, dispose: () => mosquitto.dispose() };
  });
});
