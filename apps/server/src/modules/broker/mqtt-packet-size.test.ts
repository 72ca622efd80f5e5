import mqtt from 'mqtt';
import { agentClientId, MQTT_MAX_PACKET_BYTES, topics } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, embeddedSetup, enrollByHand, mosquittoBin, mosquittoSetup, tearDown, waitFor, type MessagingSetup } from './broker.test-support.js';
import { rawMqttClient } from './mqtt-raw.test-support.js';

const bin = mosquittoBin();

/** Resolves once the broker closed the connection; fails after 5 s (the packet was taken). */
const disconnected = (closed: Promise<void>) =>
  Promise.race([closed, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the broker took the packet: the connection stayed open')), 5000))]);

/**
 * Issue 57: a device that publishes a packet larger than MQTT_MAX_PACKET_BYTES to its own topic is
 * disconnected before the broker holds it, on the built-in broker and on Mosquitto with the shipped
 * configuration; packets up to the limit pass.
 */
describe.each([
  ['the built-in broker', () => embeddedSetup(), true],
  ['Mosquitto with the shipped configuration', () => mosquittoSetup(bin!), !!bin],
] as const)('MQTT packets on %s', (_name, setup, available) => {
  let s: MessagingSetup;
  beforeAll(async () => {
    if (available) s = await setup();
  });
  afterAll(async () => tearDown(s, { agents: [], dirs: [] }));

  it.skipIf(!available)('passes a message up to the limit and disconnects a device that sends a larger one, holding none of it', async () => {
    await waitFor(() => s.tc.messaging!.hub.isConnected(s.serverId), 10_000, 'hub connected');
    const device = await createDevice(s.tc.database.db);
    const account = await enrollByHand(s.tc, device);
    const clientId = agentClientId(device.id);

    // Within the limit: taken, and the connection stays.
    const fine = await mqtt.connectAsync(account.url, { username: account.username, password: account.password, clientId, protocolVersion: 4, reconnectPeriod: 0 });
    await fine.publishAsync(topics.metrics(device.id), Buffer.alloc(MQTT_MAX_PACKET_BYTES - 1024), { qos: 1 });
    expect(fine.connected).toBe(true);
    await fine.endAsync(true);

    // The 1 MB: refused.
    const megabyte = await rawMqttClient(account.url, { username: account.username, password: account.password, clientId });
    await megabyte.publishLarge(topics.metrics(device.id), 1_000_000);
    await disconnected(megabyte.closed);

    // 50 MB announced: the connection goes at once, and the console's memory does not grow with it.
    const before = process.memoryUsage();
    const raw = await rawMqttClient(account.url, { username: account.username, password: account.password, clientId });
    const started = Date.now();
    await raw.publishLarge(topics.metrics(device.id), 50 * 1024 * 1024);
    await disconnected(raw.closed);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(raw.socket.bytesWritten).toBeLessThan(10 * 1024 * 1024);
    const after = process.memoryUsage();
    expect((after.arrayBuffers - before.arrayBuffers) / 1024 / 1024).toBeLessThan(10);
    expect((after.rss - before.rss) / 1024 / 1024).toBeLessThan(30);
  }, 60_000);
});
