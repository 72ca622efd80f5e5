import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { addressAllowed } from './access.js';
import type { ProxyLog } from './log.js';
import { openChannel, type ActiveTunnel } from './tunnel-table.js';

export interface PortRange {
  from: number;
  to: number;
}

/** A TCP tunnel's port at the proxy, open while the tunnel is connected. */
export interface TcpListener {
  port: number;
  close(): Promise<void>;
}

/**
 * The ports TCP tunnels are served on: each connected TCP tunnel takes the first free port of the
 * range and gives it back when it disconnects. A connection from an address the tunnel's
 * allow-list does not hold is closed before anything reaches the device.
 */
export class TcpPorts {
  private readonly taken = new Set<number>();

  constructor(private readonly o: { host: string; range: PortRange; log: ProxyLog }) {}

  async open(tunnel: ActiveTunnel): Promise<TcpListener> {
    const { from, to } = this.o.range;
    for (let port = from; port <= to; port++) {
      if (this.taken.has(port)) continue;
      this.taken.add(port);
      const sockets = new Set<Socket>();
      const server = this.serve(tunnel, sockets);
      try {
        server.listen(port, this.o.host);
        await once(server, 'listening');
      } catch (err) {
        this.taken.delete(port);
        // Another program holds it: the next one of the range.
        if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') continue;
        throw err;
      }
      return { port, close: () => this.release(port, server, sockets) };
    }
    throw new Error(`No port is free for a TCP tunnel: all of ${from}-${to} are in use.`);
  }

  private serve(tunnel: ActiveTunnel, sockets: Set<Socket>): Server {
    // Half-closes pass through: a client that ends its side still gets the device's whole answer.
    const server = createServer({ allowHalfOpen: true, noDelay: true }, (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
      if (!addressAllowed(tunnel.allow, socket.remoteAddress)) {
        this.o.log.warn({ tunnelId: tunnel.tunnelId, address: socket.remoteAddress }, 'proxy: TCP connection refused by the allow-list');
        return void socket.destroy();
      }
      openChannel(tunnel, socket).then((channel) => {
        if (socket.destroyed) {
          channel.close();
          return void socket.destroy();
        }
        channel.on('error', () => socket.destroy());
        // Ended, not destroyed: what the device sent last may still be on its way to the client.
        channel.on('close', () => socket.end());
        socket.on('close', () => channel.end());
        // A client's half-close is only an EOF on the channel, sent after what it wrote before: the
        // device may still answer. (Ending the channel would close it, as ssh2's server does.)
        socket.on('end', () => channel.write(Buffer.alloc(0), () => channel.eof()));
        socket.pipe(channel, { end: false });
        channel.pipe(socket);
      }, () => socket.destroy());
    });
    return server;
  }

  private async release(port: number, server: Server, sockets: Set<Socket>): Promise<void> {
    // Connections in progress end with the tunnel: a server closes only once they have.
    sockets.forEach((s) => s.destroy());
    await new Promise<void>((resolve) => server.close(() => resolve()));
    this.taken.delete(port);
  }
}
