import { describe, expect, it } from 'vitest';
import { MqttPacketLimit, PacketTooLarge } from './mqtt-packet-limit.js';

/** A QoS 0 PUBLISH as MQTT 3.1.1 §3.3 lays it out (the limit reads only its fixed header). */
function publish(bytes: number): Buffer {
  const topic = Buffer.from('fl/d/x/metrics');
  const rest = Buffer.concat([Buffer.from([topic.length >> 8, topic.length & 0xff]), topic, Buffer.alloc(bytes)]);
  const length: number[] = [];
  let n = rest.length;
  do {
    length.push((n % 128) | (n >= 128 ? 0x80 : 0));
    n = Math.floor(n / 128);
  } while (n > 0);
  return Buffer.concat([Buffer.from([0x30, ...length]), rest]);
}
const PINGREQ = Buffer.from([0xc0, 0x00]);

/** Feeds bytes in pieces of `size`; answers what passed and the error, if any. */
async function feed(limit: MqttPacketLimit, bytes: Buffer, size: number): Promise<{ passed: number; error?: Error }> {
  let passed = 0;
  limit.on('data', (d: Buffer) => (passed += d.length));
  const failed = new Promise<Error>((resolve) => limit.once('error', resolve));
  for (let i = 0; i < bytes.length; i += size) if (!limit.write(bytes.subarray(i, i + size))) break;
  limit.end();
  const error = await Promise.race([failed, new Promise<undefined>((resolve) => limit.once('end', () => resolve(undefined)))]);
  return { passed, error };
}

describe('the MQTT packet limit', () => {
  it('passes packets up to the limit, in any pieces', async () => {
    const packets = Buffer.concat([publish(10), publish(1000), PINGREQ, publish(200_000)]);
    for (const size of [1, 3, 1000, packets.length]) {
      const { passed, error } = await feed(new MqttPacketLimit(256 * 1024), packets, size);
      expect(error).toBeUndefined();
      expect(passed).toBe(packets.length);
    }
  });

  it('fails on a packet announced larger than the limit, passing none of it', async () => {
    const before = publish(100);
    for (const size of [1, 2, 64 * 1024]) {
      const { passed, error } = await feed(new MqttPacketLimit(256 * 1024), Buffer.concat([before, publish(1024 * 1024)]), size);
      expect(error).toBeInstanceOf(PacketTooLarge);
      // At most the big packet's own fixed header (a type byte and up to four length bytes) goes by.
      expect(passed).toBeLessThanOrEqual(before.length + 5);
    }
  });
});
