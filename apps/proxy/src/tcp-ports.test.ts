import { createServer } from 'node:net';
import type { Connection } from 'ssh2';
import { describe, expect, it } from 'vitest';
import { TcpPorts } from './tcp-ports.js';
import type { ActiveTunnel } from './tunnel-table.js';

const silent = { info() {}, warn() {}, error() {} };
const tunnel = (tunnelId: string): ActiveTunnel => ({
  tunnelId,
  deviceId: 'd',
  hostname: null,
  connection: {} as Connection,
  bindAddr: 'localhost',
  bindPort: 1,
  allow: undefined,
  credentials: undefined,
});

describe('TCP tunnel ports', () => {
  it('takes the first free port of the range, skips one another program holds, and gives ports back', async () => {
    const other = createServer();
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', () => resolve()));
    const from = (other.address() as { port: number }).port;
    const ports = new TcpPorts({ host: '127.0.0.1', range: { from, to: from + 1 }, log: silent });
    try {
      const first = await ports.open(tunnel('a'));
      expect(first.port).toBe(from + 1);
      await expect(ports.open(tunnel('b'))).rejects.toThrow(`No port is free for a TCP tunnel: all of ${from}-${from + 1} are in use.`);
      await first.close();
      const again = await ports.open(tunnel('c'));
      expect(again.port).toBe(from + 1);
      await again.close();
    } finally {
      other.close();
    }
  });
});
