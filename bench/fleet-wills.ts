import mqtt, { type MqttClient } from 'mqtt';
import { topics } from '@fleetlink/contract';
import type { MosquittoProcess } from '../apps/server/src/modules/broker/broker.test-support.js';

/**
 * Counts the last wills Mosquitto publishes for the simulated agents: an offline state nobody
 * published. The simulators never send one themselves (their goodbye is a clean DISCONNECT), so
 * every offline state that arrives live (not a retained one given at subscribing) is a will: a
 * connection Mosquitto ended, or one taken over by its own agent reconnecting (Mosquitto sends
 * the old connection's will then, eclipse-mosquitto/mosquitto#904). The consoles handle these as
 * telemetry the simulators did not count as sent. One plain subscription per server, with the
 * console's account (its role reads every device topic), apart from the consoles' shared ones.
 */
export function watchWills(brokers: MosquittoProcess[]): { count(): number; stop(): Promise<void> } {
  let wills = 0;
  const clients: MqttClient[] = brokers.map((b, i) => {
    const client = mqtt.connect(b.url, {
      protocolVersion: 4,
      clientId: `fleet-bench-wills-${i}-${process.pid}`,
      username: b.admin.username,
      password: b.admin.password,
      clean: true,
      reconnectPeriod: 500,
      connectTimeout: 10_000,
    });
    client.on('connect', () => client.subscribe(topics.state('+'), { qos: 1 }));
    client.on('error', () => {});
    client.on('message', (_topic, payload, packet) => {
      if (packet.retain) return;
      try {
        if ((JSON.parse(payload.toString('utf8')) as { online?: boolean }).online === false) wills++;
      } catch {
        // Not a state the simulators would send; not counted.
      }
    });
    return client;
  });
  return {
    count: () => wills,
    async stop() {
      await Promise.all(clients.map((c) => c.endAsync(true)));
    },
  };
}
