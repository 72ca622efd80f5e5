import type { BlockList } from 'node:net';
import type { Connection } from 'ssh2';

/** A tunnel the proxy serves now: a device's reverse forward, and the security the console set. */
export interface ActiveTunnel {
  tunnelId: string;
  deviceId: string;
  hostname: string;
  /** Where the ingress sends a request: the forward the agent asked for, on its SSH connection. */
  connection: Connection;
  bindAddr: string;
  bindPort: number;
  allow: BlockList | undefined;
  credentials: { tunnelId: string; username: string; passwordHash: string } | undefined;
}

/** The tunnels connected to this proxy, by the host name the ingress answers for them. */
export class TunnelTable {
  private readonly byHost = new Map<string, ActiveTunnel>();

  get(hostname: string): ActiveTunnel | undefined {
    return this.byHost.get(hostname);
  }

  /** Takes the host name, answering the tunnel that held it (a device's earlier connection) if any. */
  add(tunnel: ActiveTunnel): ActiveTunnel | undefined {
    const before = this.byHost.get(tunnel.hostname);
    this.byHost.set(tunnel.hostname, tunnel);
    return before && before !== tunnel ? before : undefined;
  }

  /** Removes the tunnel unless another connection has taken its host name since. */
  remove(tunnel: ActiveTunnel): boolean {
    if (this.byHost.get(tunnel.hostname) !== tunnel) return false;
    this.byHost.delete(tunnel.hostname);
    return true;
  }

  get size(): number {
    return this.byHost.size;
  }
}
