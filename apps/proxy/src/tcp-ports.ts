import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { addressAllowed } from './access.js';
import type { ProxyLog } from './log.js';
import type { ProxyMeter } from './proxy-metrics.js';
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

/** A port served for one tunnel, and the forward (of the device's newest connection) it leads to. */
interface Served {
  port: number;
  server: Server;
  /** Settles once the port is listening (or failed to). */
  listening: Promise<void>;
  sockets: Set<Socket>;
  tunnel: ActiveTunnel;
  /** Released: a connection the server accepted just before it stopped listening is not served. */
  released?: boolean;
}

/** Why a TCP tunnel gets no port, in words for the person who connected it. */
export class NoTcpPort extends Error {}

/**
 * The ports TCP tunnels are served on: each connected TCP tunnel has one port of the range, whatever
 * the number of its device's SSH connections (a newer connection's forward takes the port over), and
 * gives it back when it disconnects; a device has at most `maxPerDevice` of them, so that one
 * device cannot take the range from everyone else. A connection from an address the tunnel's
 * allow-list does not hold is closed before anything reaches the device.
 */
export class TcpPorts {
  private readonly taken = new Set<number>();
  private readonly byTunnel = new Map<string, Served>();

  constructor(private readonly o: { host: string; range: PortRange; maxPerDevice: number; log: ProxyLog; meter?: ProxyMeter }) {}

  async open(tunnel: ActiveTunnel): Promise<TcpListener> {
    const current = this.byTunnel.get(tunnel.tunnelId);
    if (current) {
      // The device's newer connection: new visitors go through it; those in progress stay on the old one.
      current.tunnel = tunnel;
      await current.listening;
      return this.listener(current, tunnel);
    }
    const held = [...this.byTunnel.values()].filter((s) => s.tunnel.deviceId === tunnel.deviceId).length;
    if (held >= this.o.maxPerDevice) {
      throw new NoTcpPort(`This device has ${held} TCP tunnel${held === 1 ? '' : 's'} connected at this proxy, the most one device may have: disconnect one first.`);
    }
    // Claimed before the first await: a forward of the same tunnel meanwhile shares the port.
    const served = { sockets: new Set<Socket>(), tunnel } as Served;
    served.listening = this.listen(served);
    this.byTunnel.set(tunnel.tunnelId, served);
    try {
      await served.listening;
    } catch (err) {
      if (this.byTunnel.get(tunnel.tunnelId) === served) this.byTunnel.delete(tunnel.tunnelId);
      throw err;
    }
    return this.listener(served, tunnel);
  }

  /** Listens on the first free port of the range for the tunnel. */
  private async listen(served: Served): Promise<void> {
    const { from, to } = this.o.range;
    for (let port = from; port <= to; port++) {
      if (this.taken.has(port)) continue;
      this.taken.add(port);
      const server = this.serve(served);
      try {
        server.listen(port, this.o.host);
        await once(server, 'listening');
      } catch (err) {
        this.taken.delete(port);
        // Another program holds it: the next one of the range.
        if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') continue;
        throw err;
      }
      served.port = port;
      served.server = server;
      return;
    }
    throw new NoTcpPort(`No port is free for a TCP tunnel at this proxy: all of ${from}-${to} are in use. Try again later, or ask an administrator to widen the range.`);
  }

  /** The forward's hold on the port: closing it gives the port back only if no newer forward took it over. */
  private listener(served: Served, tunnel: ActiveTunnel): TcpListener {
    return {
      port: served.port,
      close: async () => {
        if (served.tunnel !== tunnel || this.byTunnel.get(tunnel.tunnelId) !== served) return;
        this.byTunnel.delete(tunnel.tunnelId);
        await this.release(served);
      },
    };
  }

  private serve(served: Served): Server {
    const { sockets } = served;
    // Half-closes pass through: a client that ends its side still gets the device's whole answer.
    const server = createServer({ allowHalfOpen: true, noDelay: true }, (socket) => {
      const { tunnel } = served;
      // Accepted as the port was given back: the server's close would wait on it for ever.
      if (served.released) return void socket.destroy();
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
      this.o.meter?.connection(socket);
      if (!addressAllowed(tunnel.allow, socket.remoteAddress)) {
        this.o.log.warn({ tunnelId: tunnel.tunnelId, address: socket.remoteAddress }, 'proxy: TCP connection refused by the allow-list');
        this.o.meter?.refused('tcp');
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

  private async release(served: Served): Promise<void> {
    const { port, server, sockets } = served;
    served.released = true;
    // Connections in progress end with the tunnel: a server closes only once they have.
    sockets.forEach((s) => s.destroy());
    await new Promise<void>((resolve) => server.close(() => resolve()));
    this.taken.delete(port);
  }
}
