import { connect } from 'node:net';
import type { TunnelCloseRequest, TunnelOpenRequest } from '@fleetlink/contract';
import ssh2 from 'ssh2';
import { log } from '../log.js';
import { Refused } from '../refused.js';

interface Forward {
  tunnelId: string;
  host: string;
  port: number;
}

interface ProxyConnection {
  key: string;
  client: ssh2.Client;
  ready: Promise<void>;
}

/**
 * The agent's tunnels (DESIGN §6): one SSH connection to its proxy, which must present the host key
 * the console registered for it, and a reverse forward (`tcpip-forward`, as `ssh -R`) per tunnel.
 * What comes in through a forward is connected to the tunnel's host and port on this device. The
 * forwards live as long as the connection: when the agent stops, its EPHEMERAL tunnels end.
 */
export class TunnelClient {
  private proxy?: ProxyConnection;
  private readonly forwards = new Map<number, Forward>();

  constructor(private readonly account: () => { username: string; password: string }) {}

  /** Opens in progress, by port: a second request for one (a restart's reopen beside a person's Connect) waits for the first. */
  private readonly opening = new Map<number, Promise<void>>();

  async open(req: TunnelOpenRequest): Promise<void> {
    for (let pending = this.opening.get(req.port); pending; pending = this.opening.get(req.port)) await pending.catch(() => {});
    const opened = this.openNow(req);
    this.opening.set(req.port, opened);
    try {
      await opened;
    } finally {
      if (this.opening.get(req.port) === opened) this.opening.delete(req.port);
    }
  }

  private async openNow(req: TunnelOpenRequest): Promise<void> {
    const proxy = await this.connection(req.proxy);
    const current = this.forwards.get(req.port);
    if (current?.tunnelId === req.tunnelId) {
      this.forwards.set(req.port, { tunnelId: req.tunnelId, host: req.host, port: req.port });
      return;
    }
    await new Promise<void>((resolve, reject) =>
      proxy.client.forwardIn('localhost', req.port, (err) =>
        err ? reject(new Refused(`The proxy refused the tunnel for port ${req.port}: this device may not forward it.`)) : resolve(),
      ),
    );
    this.forwards.set(req.port, { tunnelId: req.tunnelId, host: req.host, port: req.port });
    log('info', 'tunnel open', { tunnelId: req.tunnelId, port: req.port });
  }

  async close(req: TunnelCloseRequest): Promise<void> {
    const proxy = this.proxy;
    if (!this.forwards.has(req.port) || !proxy) return;
    this.forwards.delete(req.port);
    await new Promise<void>((resolve) => proxy.client.unforwardIn('localhost', req.port, () => resolve()));
    log('info', 'tunnel closed', { tunnelId: req.tunnelId, port: req.port });
    if (this.forwards.size === 0) this.end();
  }

  /** Ends the connection and with it every forward. */
  end(): void {
    const proxy = this.proxy;
    this.proxy = undefined;
    this.forwards.clear();
    proxy?.client.end();
  }

  private async connection(target: TunnelOpenRequest['proxy']): Promise<ProxyConnection> {
    const key = `${target.url}\n${target.hostKey}`;
    if (this.proxy?.key !== key) {
      // Another proxy (or key) now: the forwards at the old one go with its connection.
      this.end();
      this.proxy = this.dial(key, target);
    }
    const proxy = this.proxy;
    try {
      await proxy.ready;
      return proxy;
    } catch (err) {
      if (this.proxy === proxy) this.proxy = undefined;
      throw err;
    }
  }

  private dial(key: string, target: TunnelOpenRequest['proxy']): ProxyConnection {
    const url = new URL(target.url);
    if (url.protocol !== 'ssh:') throw new Refused(`The proxy's URL is not ssh://host:port: ${target.url}`);
    const expected = ssh2.utils.parseKey(target.hostKey);
    if (expected instanceof Error) throw new Refused("The proxy's registered host key cannot be read.");
    const expectedBlob = expected.getPublicSSH();
    const client = new ssh2.Client();
    let verified = true;
    const ready = new Promise<void>((resolve, reject) => {
      client.once('ready', () => resolve());
      client.once('error', (err) => {
        reject(
          verified
            ? new Refused(`Cannot reach the tunnel proxy at ${url.host}: ${err.message}`)
            : new Refused(`The tunnel proxy at ${url.host} presented another host key than the one registered for it: refused.`),
        );
      });
    });
    client.on('tcp connection', (info, accept, reject) => {
      const forward = this.forwards.get(info.destPort);
      if (!forward) return reject();
      const channel = accept();
      const local = connect({ port: forward.port, host: forward.host, noDelay: true });
      local.on('error', () => channel.destroy());
      channel.on('error', () => local.destroy());
      // Each side ends the other once what it sent is written: a destroy would drop the tail still
      // buffered (a TCP client that half-closes waits for the whole answer). A half-close from the
      // proxy (EOF) half-closes the connection to the service; the channel closes with it.
      channel.on('close', () => local.end());
      local.on('close', () => channel.end(() => channel.close()));
      local.pipe(channel).pipe(local);
    });
    client.on('close', () => {
      if (this.proxy?.client !== client) return;
      log('warn', 'tunnel proxy connection closed', { proxy: url.host });
      this.proxy = undefined;
      this.forwards.clear();
    });
    const { username, password } = this.account();
    client.connect({
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: Number(url.port || 22),
      username,
      password,
      readyTimeout: 15_000,
      keepaliveInterval: 15_000,
      hostVerifier: (presented: Buffer) => {
        verified = presented.equals(expectedBlob);
        if (!verified) log('error', 'tunnel proxy host key mismatch: refusing it', { proxy: url.host });
        return verified;
      },
    });
    // Window adjustments and small writes go at once (Nagle's algorithm would hold each one back).
    client.setNoDelay(true);
    return { key, client, ready };
  }
}
