import { agentClientId, topics } from '@fleetlink/contract';
import { eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceMetrics } from '../../db/schema/index.js';
import type { TestConsole } from '../../testing/test-console.js';
import { createDevice, deviceRow, enrollByHand, startAgentTestConsole, waitFor } from '../broker/broker.test-support.js';

/**
 * What an enrolled device publishes is checked before it is stored: a load sample dated in the
 * future or before the device was registered, an address that is no IP address and a property
 * value over its limit are dropped (and logged), whatever the device's own credentials allow.
 */
describe('values a device reports', () => {
  let tc: TestConsole;
  let device: { id: string; key: string };
  let client: MqttClient;

  beforeAll(async () => {
    tc = await startAgentTestConsole();
    // Registered an hour ago, so that samples of the last hour are the device's.
    device = await createDevice(tc.database.db, 'reporting device', new Date(Date.now() - 3600_000));
    const account = await enrollByHand(tc, device);
    client = await mqtt.connectAsync(account.url, { username: account.username, password: account.password, clientId: agentClientId(device.id), protocolVersion: 4, reconnectPeriod: 0 });
  });
  afterAll(async () => {
    await client?.endAsync();
    await tc?.close();
  });

  const publish = (topic: string, payload: unknown) => client.publishAsync(topic, JSON.stringify(payload), { qos: 1 });
  const storedLoads = async () =>
    (await tc.database.db.select().from(deviceMetrics).where(eq(deviceMetrics.deviceId, device.id))).map((m) => m.systemLoad).sort();

  it('drops load samples dated more than a few minutes ahead or before the device was registered, and stores the others', async () => {
    const minutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();
    await publish(topics.metrics(device.id), { time: '9999-12-31T23:59:59Z', systemLoad: 0.11 });
    await publish(topics.metrics(device.id), { time: minutes(10), systemLoad: 0.12 });
    await publish(topics.metrics(device.id), { time: minutes(-120), systemLoad: 0.13 });
    await publish(topics.metrics(device.id), { time: '2001-01-01T00:00:00Z', systemLoad: 0.14 });
    // A clock a little ahead, and samples of the last hour, are the device's.
    await publish(topics.metrics(device.id), { time: minutes(2), systemLoad: 0.5 });
    await publish(topics.metrics(device.id), { time: minutes(-30), systemLoad: 0.25 });
    await waitFor(async () => (await storedLoads()).length >= 2, 10_000, 'the valid samples');
    await new Promise((r) => setTimeout(r, 1500)); // one more flush, for anything that would come late
    expect(await storedLoads()).toEqual([0.25, 0.5]);
  });

  it('drops properties with an address that is no IP address or a value over its limit, and stores valid ones', async () => {
    const base = { properties: { hostname: 'pump-7' }, addresses: [{ type: 'LOCAL', ip: '10.0.0.7' }], drives: [] };
    await publish(topics.properties(device.id), { ...base, properties: { hostname: 'evil' }, addresses: [{ type: 'PUBLIC', ip: '<script>alert(1)</script>' }] });
    await publish(topics.properties(device.id), { ...base, properties: { hostname: 'x'.repeat(4097) } });
    await publish(topics.properties(device.id), { ...base, addresses: [{ type: 'LOCAL', ip: '999.1.1.1' }] });
    await publish(topics.properties(device.id), base);
    const row = await waitFor(async () => {
      const r = await deviceRow(tc.database.db, device.id);
      return r.properties?.hostname === 'pump-7' && r;
    }, 10_000, 'the valid properties');
    expect(row.addresses).toEqual([{ type: 'LOCAL', ip: '10.0.0.7' }]);
    // IPv6 addresses are addresses too.
    await publish(topics.properties(device.id), { ...base, addresses: [{ type: 'LOCAL', ip: 'fe80::1' }, { type: 'PUBLIC', ip: '2001:db8::7' }] });
    await waitFor(async () => (await deviceRow(tc.database.db, device.id)).addresses.length === 2, 10_000, 'IPv6 addresses');
  });
});
