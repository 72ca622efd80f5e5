import { createServer, type Server } from 'node:net';
import type { Connection } from 'ssh2';
import { describe, expect, it } from 'vitest';
import { TcpPorts } from './tcp-ports.js';
import type { ActiveTunnel } from './tunnel-table.js';

const silent = { info() {}, warn() {}, error() {} };
const tunnel = (tunnelId: string, deviceId = 'd'): ActiveTunnel => ({
  tunnelId,
  deviceId,
  hostname: null,
  connection: {} as Connection,
  bindAddr: 'localhost',
  bindPort: 1,
  allow: undefined,
  credentials: undefined,
});

const listen = (server: Server, port: number) =>
  new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });

/**
 * A port held by another program, with the `free` ports after it free. Taken below Linux's ephemeral
 * range (32768 on), where no program is given a port unless it asks for that one: the ports a test
 * run's many connections are given (the neighbour of a port from listen(0) among them) stay out of
 * the way. (CI of 2026-11-28: 45018, beside listen(0)'s 45017, was taken when the test ran.)
 */
async function heldPortWithFreeNeighbours(free: number): Promise<{ other: Server; from: number }> {
  for (;;) {
    const from = 10_000 + Math.floor(Math.random() * (32_000 - 10_000 - free));
    const other = createServer();
    if (!(await listen(other, from))) continue;
    const probes = Array.from({ length: free }, () => createServer());
    const freeAfter = await Promise.all(probes.map((probe, i) => listen(probe, from + 1 + i)));
    await Promise.all(probes.map((probe) => new Promise((resolve) => probe.close(resolve))));
    if (freeAfter.every(Boolean)) return { other, from };
    other.close();
  }
}

describe('TCP tunnel ports', () => {
  it('takes the first free port of the range, skips one another program holds, and gives ports back', async () => {
    const { other, from } = await heldPortWithFreeNeighbours(1);
    const ports = new TcpPorts({ host: '127.0.0.1', range: { from, to: from + 1 }, maxPerDevice: 10, log: silent });
    try {
      const first = await ports.open(tunnel('a'));
      expect(first.port).toBe(from + 1);
      await expect(ports.open(tunnel('b'))).rejects.toThrow(
        `No port is free for a TCP tunnel at this proxy: all of ${from}-${from + 1} are in use. Try again later, or ask an administrator to widen the range.`,
      );
      await first.close();
      const again = await ports.open(tunnel('c'));
      expect(again.port).toBe(from + 1);
      await again.close();
    } finally {
      other.close();
    }
  });

  it('gives a tunnel one port whatever the number of its connections, and a device at most its share', async () => {
    const free = await heldPortWithFreeNeighbours(10);
    const from = free.from + 1;
    free.other.close();
    const ports = new TcpPorts({ host: '127.0.0.1', range: { from, to: from + 9 }, maxPerDevice: 2, log: silent });
    // Five connections of one device forward the same tunnel: one port, taken over by the newest.
    const connections = [1, 2, 3, 4, 5].map(() => tunnel('web'));
    const held = await Promise.all(connections.map((c) => ports.open(c)));
    expect(new Set(held.map((h) => h.port))).toEqual(new Set([from]));
    // An older connection that closes leaves the port to the newest.
    await held[0]!.close();
    expect((await ports.open(tunnel('second'))).port).toBe(from + 1);
    await expect(ports.open(tunnel('third'))).rejects.toThrow('This device has 2 TCP tunnels connected at this proxy, the most one device may have: disconnect one first.');
    // Another device still gets its ports.
    expect((await ports.open(tunnel('theirs', 'e'))).port).toBe(from + 2);
    // The newest connection's close gives the port back.
    await held[4]!.close();
    expect((await ports.open(tunnel('third'))).port).toBe(from);
  });
});
