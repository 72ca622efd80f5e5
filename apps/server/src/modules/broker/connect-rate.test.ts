import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedSetup, tearDown, waitFor, type MessagingSetup } from './broker.test-support.js';

/**
 * Issue 67: the built-in broker takes device connections at MQTT_CONNECT_RATE a second; past it they
 * are refused as 'server unavailable' (CONNACK 3) before their account is read, and the console's
 * own connection is never held back.
 */
describe('the built-in broker’s connection rate', () => {
  let s: MessagingSetup;
  beforeAll(async () => {
    s = await embeddedSetup({ MQTT_CONNECT_RATE: '5' });
    await waitFor(() => s.tc.messaging!.hub.isConnected(s.serverId), 10_000, 'hub connected');
  });
  afterAll(async () => tearDown(s, { agents: [], dirs: [] }));

  /** One connection attempt's CONNACK return code (0: taken). */
  const attempt = (i: number) =>
    new Promise<number>((resolve) => {
      const client = mqtt.connect(`mqtt://127.0.0.1:${s.tc.messaging!.broker!.port}`, {
        protocolVersion: 4,
        clientId: `crowd-${i}`,
        username: `not-a-device-${i}`,
        password: 'wrong',
        reconnectPeriod: 0,
        connectTimeout: 5000,
      });
      client.on('connect', () => resolve(0));
      client.on('error', (err) => resolve((err as { code?: number }).code ?? -1));
      client.on('close', () => setTimeout(() => resolve(-1), 100));
    });

  it('answers a burst past the rate "server unavailable", and takes more a second later', async () => {
    const codes = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(i)));
    // 5 read and refused for their account (4: bad username or password), the rest not even read
    // (3); one or two more read if the burst took a few hundred milliseconds to arrive.
    expect(codes.filter((c) => c !== 3 && c !== 4)).toEqual([]);
    expect(codes.filter((c) => c === 4).length).toBeGreaterThanOrEqual(5);
    expect(codes.filter((c) => c === 4).length).toBeLessThanOrEqual(7);
    expect(s.tc.messaging!.hub.isConnected(s.serverId)).toBe(true);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await attempt(99)).toBe(4);
  });
});
