import { createServer, type Server, type Socket } from 'node:net';
import { Aedes } from 'aedes';
import { afterAll, describe, expect, it } from 'vitest';
import { createMqttClient, type MqttClient } from './connection.js';
import { ReconnectPolicy } from './reconnect-policy.js';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

describe('ReconnectPolicy', () => {
  it('spreads the first try over half the cap, then doubles its window up to the cap', () => {
    const top = new ReconnectPolicy({ baseMs: 1000, capMs: 30_000, random: () => 0.999_999 });
    expect([1, 2, 3, 4, 5, 6, 7].map(() => top.nextDelayMs())).toEqual([15_000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    top.connected();
    expect(top.nextDelayMs()).toBe(15_000);
    const bottom = new ReconnectPolicy({ baseMs: 1000, capMs: 30_000, random: () => 0 });
    expect([1, 2, 3].map(() => bottom.nextDelayMs())).toEqual([0, 0, 0]);
  });
});

/**
 * Issue 67: 200 simulated agents (the agent's own MQTT client, reconnecting as Agent does, with the
 * production defaults) on a real MQTT broker (Aedes over TCP) that restarts, down for 2 s. They come
 * back spread out: the 3rd and 97th percentile of their reconnect times differ by at least 10 s,
 * and all are back within 30 s of the broker's return.
 */
describe('200 agents after a broker restart', () => {
  let broker: { server: Server; sockets: Set<Socket>; close(): Promise<void> } | undefined;
  const clients: MqttClient[] = [];
  afterAll(async () => {
    for (const c of clients) c.end(true);
    await broker?.close();
  });

  async function startBroker(port = 0) {
    const aedes = await Aedes.createBroker();
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      aedes.handle(socket);
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return {
      server,
      sockets,
      /** As a killed broker: every connection cut at once. */
      close: async () => {
        for (const s of sockets) s.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await new Promise<void>((resolve) => aedes.close(() => resolve()));
      },
    };
  }

  it('come back spread over at least 10 s (3rd to 97th percentile), all within 30 s', async () => {
    broker = await startBroker();
    const port = (broker.server.address() as { port: number }).port;
    const back: number[] = [];
    let restartedAt = 0;
    await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const client = await createMqttClient(`mqtt://127.0.0.1:${port}`, { clientId: `sim-${i}`, reconnectPeriod: 0, keepalive: 60, connectTimeout: 5000 });
        clients.push(client);
        const policy = new ReconnectPolicy({ baseMs: 1000, capMs: 30_000 });
        let timer: NodeJS.Timeout | undefined;
        client.on('connect', () => {
          policy.connected();
          if (restartedAt) back.push(Date.now() - restartedAt);
        });
        client.on('close', () => {
          if (timer) return;
          timer = setTimeout(() => {
            timer = undefined;
            client.reconnect();
          }, policy.nextDelayMs());
        });
        await new Promise<void>((resolve) => (client.connected ? resolve() : client.once('connect', () => resolve())));
      }),
    );
    await broker.close();
    await new Promise((r) => setTimeout(r, 2000));
    broker = await startBroker(port);
    restartedAt = Date.now();
    const deadline = Date.now() + 40_000;
    while (back.length < 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    const sorted = [...back].sort((a, b) => a - b);
    const [p3, p97, last] = [percentile(sorted, 3), percentile(sorted, 97), sorted.at(-1)!];
    console.log(`200 reconnects after a broker restart: p3 ${p3} ms, p97 ${p97} ms, last ${last} ms`);
    expect(back).toHaveLength(200);
    expect(p97 - p3).toBeGreaterThanOrEqual(10_000);
    expect(last).toBeLessThan(30_000);
  }, 90_000);
});
