import type { BlockList } from 'node:net';
import type { Connection, ServerChannel } from 'ssh2';

/** A tunnel the proxy serves now: a device's reverse forward, and the security the console set. */
export interface ActiveTunnel {
  tunnelId: string;
  deviceId: string;
  /** The host name the ingress answers for an HTTP tunnel; null for a TCP one (it has a port). */
  hostname: string | null;
  /** Where the ingress sends a request: the forward the agent asked for, on its SSH connection. */
  connection: Connection;
  bindAddr: string;
  bindPort: number;
  allow: BlockList | undefined;
  credentials: { tunnelId: string; username: string; passwordHash: string } | undefined;
}

/**
 * A new SSH channel through the tunnel's forward: the device connects it to its service. `peer` is
 * the connection it carries, as the device is told (ssh2 asks for one; nothing depends on it).
 */
export function openChannel(tunnel: ActiveTunnel, peer: { remoteAddress?: string; remotePort?: number } = {}): Promise<ServerChannel> {
  return new Promise((resolve, reject) =>
    tunnel.connection.forwardOut(tunnel.bindAddr, tunnel.bindPort, peer.remoteAddress ?? '127.0.0.1', peer.remotePort ?? 0, (err, channel) =>
      err ? reject(err) : resolve(channel),
    ),
  );
}

/** An HTTP tunnel: the ingress finds it by its host name. */
export type HttpTunnel = ActiveTunnel & { hostname: string };

/**
 * The tunnels connected to this proxy: each by its id (a device's newer connection takes a tunnel
 * over from its older one) and HTTP ones by the host name the ingress answers for them.
 */
export class TunnelTable {
  private readonly byId = new Map<string, ActiveTunnel>();
  private readonly byHost = new Map<string, HttpTunnel>();
  private readonly removed: ((tunnel: ActiveTunnel) => void)[] = [];

  /** Called with each tunnel that leaves the table (what was kept for it can go). */
  onRemove(listener: (tunnel: ActiveTunnel) => void): void {
    this.removed.push(listener);
  }

  get(hostname: string): HttpTunnel | undefined {
    return this.byHost.get(hostname);
  }

  /** Takes the tunnel over from whatever connection held it before. */
  add(tunnel: ActiveTunnel): void {
    this.byId.set(tunnel.tunnelId, tunnel);
    if (tunnel.hostname) this.byHost.set(tunnel.hostname, tunnel as HttpTunnel);
  }

  /** Removes the tunnel unless another connection has taken it over since. */
  remove(tunnel: ActiveTunnel): boolean {
    if (this.byId.get(tunnel.tunnelId) !== tunnel) return false;
    this.byId.delete(tunnel.tunnelId);
    if (tunnel.hostname && this.byHost.get(tunnel.hostname) === tunnel) this.byHost.delete(tunnel.hostname);
    this.removed.forEach((listener) => listener(tunnel));
    return true;
  }

  get size(): number {
    return this.byId.size;
  }
}
