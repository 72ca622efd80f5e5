import mqtt from 'mqtt';
import { agentClientId, topics } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, enrollByHand, mosquittoBin, mosquittoSetup, tearDown, waitFor, type MessagingSetup } from './broker.test-support.js';

const bin = mosquittoBin();
const MAX_BACKLOG = 100;
/** Short, so that a session held back outlasts several of them within the test. */
const KEEPALIVE_SECONDS = 2;

/**
 * Issue 70: in a reconnect storm a console is sent device messages faster than it handles them.
 * It reads at most MQTT_MAX_BACKLOG of them ahead; the rest wait at Mosquitto (the project's
 * configuration, deploy/mosquitto, holds them) and none is lost.
 */
describe.skipIf(!bin)('a console sent device messages faster than it handles them', () => {
  let s: MessagingSetup;
  const cleanup = { agents: [], dirs: [] };
  beforeAll(async () => {
    s = await mosquittoSetup(bin!, { MQTT_MAX_BACKLOG: String(MAX_BACKLOG), MQTT_KEEPALIVE_SECONDS: String(KEEPALIVE_SECONDS) });
    await waitFor(() => s.tc.messaging!.hub.isConnected(s.serverId), 10_000, 'hub connected');
  }, 60_000);
  afterAll(async () => tearDown(s, cleanup));

  it('reads no more than its backlog ahead, and handles every message once it catches up', async () => {
    const hub = s.tc.messaging!.hub;
    const dev = await createDevice(s.tc.database.db);
    const account = await enrollByHand(s.tc, dev);
    expect(account.url).toBe(s.mosquitto!.url);
    const device = await mqtt.connectAsync(account.url, {
      protocolVersion: 4,
      clientId: agentClientId(dev.id),
      username: account.username,
      password: account.password,
      reconnectPeriod: 0,
    });
    // The console's handling held up until the gate opens: a database slower than the storm.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const handled = { state: 0, heartbeat: 0, properties: 0, metrics: 0 };
    let peak = 0;
    const handler = hub.handler;
    hub.handler = {
      async handle(_serverId, _deviceId, message) {
        peak = Math.max(peak, hub.telemetryCounts().backlog);
        await gate;
        handled[message.kind]++;
      },
    };
    try {
      // Three times what Mosquitto's default queue (1,000 per client) would keep of the states.
      const N = 3000;
      for (let i = 1; i <= N; i++) {
        device.publish(topics.state(dev.id), JSON.stringify({ online: true, session: i }), { qos: 1 });
        device.publish(topics.heartbeat(dev.id), JSON.stringify({ time: new Date().toISOString() }), { qos: 0 });
      }
      await waitFor(() => hub.telemetryCounts().backlog >= MAX_BACKLOG, 10_000, 'the backlog full');
      await new Promise((r) => setTimeout(r, 1000));
      expect(hub.telemetryCounts().backlog).toBe(MAX_BACKLOG);
      open();
      await waitFor(() => handled.state === N && handled.heartbeat === N, 30_000, 'every message handled');
      expect(peak).toBeLessThanOrEqual(MAX_BACKLOG);
      expect(hub.telemetryCounts().backlog).toBe(0);
    } finally {
      open();
      hub.handler = handler;
      await device.endAsync();
    }
  }, 60_000);

  it('keeps a session held back for longer than its keepalive, and loses none of what waited', async () => {
    const hub = s.tc.messaging!.hub;
    const sessions = () => hub.sessionCounts().get(s.serverId);
    const before = sessions();
    const dev = await createDevice(s.tc.database.db);
    const account = await enrollByHand(s.tc, dev);
    const device = await mqtt.connectAsync(account.url, { protocolVersion: 4, clientId: agentClientId(dev.id), username: account.username, password: account.password, reconnectPeriod: 0 });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const seen = new Set<number>();
    let twice = 0;
    const handler = hub.handler;
    hub.handler = {
      async handle(_serverId, _deviceId, message) {
        await gate;
        if (message.kind !== 'state') return;
        const session = message.payload.session!;
        if (seen.has(session)) twice++;
        seen.add(session);
      },
    };
    try {
      const N = 500;
      for (let i = 1; i <= N; i++) device.publish(topics.state(dev.id), JSON.stringify({ online: true, session: i }), { qos: 1 });
      await waitFor(() => hub.telemetryCounts().backlog >= MAX_BACKLOG, 10_000, 'the backlog full');
      // Four keepalives held: mqtt.js alone ends a session 1.5 keepalives after it last sent a packet.
      await new Promise((r) => setTimeout(r, KEEPALIVE_SECONDS * 4000));
      expect(hub.isConnected(s.serverId)).toBe(true);
      open();
      await waitFor(() => seen.size === N, 30_000, 'every state handled');
      expect(sessions()).toBe(before);
      expect(twice).toBe(0);
    } finally {
      open();
      hub.handler = handler;
      await device.endAsync();
    }
  }, 60_000);

  // The last test here: the hub it drains asks for no more messages.
  it('stopping, handles what it has read and what Mosquitto sent it before it asked for no more', async () => {
    const hub = s.tc.messaging!.hub;
    const dev = await createDevice(s.tc.database.db);
    const account = await enrollByHand(s.tc, dev);
    const device = await mqtt.connectAsync(account.url, { protocolVersion: 4, clientId: agentClientId(dev.id), username: account.username, password: account.password, reconnectPeriod: 0 });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let handled = 0;
    const handler = hub.handler;
    hub.handler = {
      async handle() {
        await gate;
        handled++;
      },
    };
    try {
      const N = 300;
      for (let i = 1; i <= N; i++) device.publish(topics.state(dev.id), JSON.stringify({ online: true, session: i }), { qos: 1 });
      await waitFor(() => hub.telemetryCounts().backlog >= MAX_BACKLOG, 10_000, 'the backlog full');
      const drained = hub.drain();
      setTimeout(open, 200);
      await drained;
      // Everything sent before the drain began reached the console and was handled before it ended.
      expect(handled).toBe(N);
      expect(hub.telemetryCounts().backlog).toBe(0);
      // And nothing more comes: the console no longer listens.
      device.publish(topics.state(dev.id), JSON.stringify({ online: true, session: N + 1 }), { qos: 1 });
      await new Promise((r) => setTimeout(r, 500));
      expect(handled).toBe(N);
    } finally {
      open();
      hub.handler = handler;
      await device.endAsync();
    }
  }, 60_000);
});
