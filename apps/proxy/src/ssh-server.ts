import type { Server as NetServer, Socket } from 'node:net';
import ssh2, { type Connection, type Server } from 'ssh2';
import { allowList } from './access.js';
import type { ConsoleClient } from './console-client.js';
import { SignInDeadlines, socketOf } from './ssh-sign-in-deadlines.js';
import type { ProxyLog } from './log.js';
import type { ProxyMeter } from './proxy-metrics.js';
import { NoTcpPort, type TcpListener, type TcpPorts } from './tcp-ports.js';
import type { ActiveTunnel, TunnelTable } from './tunnel-table.js';

export interface SshServerOptions {
  hostKey: string;
  console: ConsoleClient;
  table: TunnelTable;
  tcp: TcpPorts;
  log: ProxyLog;
  /** HTTP tunnels without a custom domain are at `{path}.{domain}`. */
  domain: string;
  /** The public address of an HTTP tunnel (by host name) or a TCP one (by port), reported to the console as its mapping. */
  mappingOf(at: { hostname: string } | { port: number }): string;
  meter?: ProxyMeter;
}

/** Whom a connection signs in as (or did), and whether that device has lost its channels since. */
interface SignIn {
  as: string | undefined;
  /** Once signed in: the device, and the tag of the credentials it signed in with (each forward names it). */
  deviceId?: string;
  credential?: string;
  revoked: boolean;
  revoke(): void;
}

/** Connections one device may hold at once (an agent needs one; a reconnecting one briefly two). */
const SSH_PER_DEVICE = 4;

/** A forward this connection holds, and the port a TCP tunnel is served on. */
type Forward = ActiveTunnel & { listener?: TcpListener };

/**
 * The proxy's SSH server: a device signs in with its id and its own password (checked by the
 * console), then asks for reverse forwards (`tcpip-forward`, as `ssh -R` does). A forward is taken
 * only for a port the console knows as one of that device's tunnels; anything else is refused and
 * logged, and no shell or other channel is ever opened.
 */
export function createSshServer(o: SshServerOptions): { server: Server; endAll(): void; endDevices(deviceIds: Set<string>): void; settled(): Promise<void>; connections(): number } {
  // Each connection until it has closed and its tunnels' disconnects are reported: a proxy that
  // stops ends them and waits for that, rather than leave a report half-way at a console that is
  // stopping too (its HTTP server would then wait out the keep-alive timeout).
  const connections = new Map<Connection, Promise<void>>();
  // Who each connection is, from the moment it asks to sign in: a device revoked while the console
  // checks its password is refused when the answer comes, even though that answer said yes.
  const signIns = new Map<Connection, SignIn>();
  const deadlines = new SignInDeadlines(o.log);
  const server = new ssh2.Server({ hostKeys: [o.hostKey], keepaliveInterval: 15_000, keepaliveCountMax: 3 }, (client, info) => {
    client.on('ready', () => deadlines.signedIn(socketOf(client)));
    let settle!: () => void;
    connections.set(client, new Promise<void>((resolve) => (settle = resolve)));
    // Window adjustments and small writes go at once: with Nagle's algorithm and delayed ACKs a
    // tunnel stalls on every one of them (issue 30's throughput run: 48 MB/s).
    // (ssh2 has it on the server's connections too; its types name it on the client only.)
    (client as Connection & { setNoDelay(noDelay: boolean): void }).setNoDelay(true);
    let gone = false;
    const signIn: SignIn = {
      as: undefined,
      revoked: false,
      // Its forwards go at once, and its socket a moment later if the device does not close it.
      revoke() {
        signIn.revoked = true;
        void Promise.all([...forwards.values()].map(close));
        client.end();
        setTimeout(() => socketOf(client)?.destroy(), 1000).unref();
      },
    };
    signIns.set(client, signIn);
    const forwards = new Map<number, Forward>();
    const peer = { address: info.ip };

    client.on('authentication', (ctx) => {
      if (ctx.method !== 'password') return ctx.reject(['password']);
      // A device's username is its id.
      signIn.as = ctx.username;
      o.console.deviceLogin(ctx.username, ctx.password).then(
        (login) => {
          if (signIn.revoked || login.deviceId !== ctx.username) return ctx.reject();
          signIn.deviceId = login.deviceId;
          signIn.credential = login.credential;
          endOldest(login.deviceId, client);
          ctx.accept();
        },
        (err: Error) => {
          o.log.warn({ ...peer, username: ctx.username.slice(0, 64), err: err.message }, 'proxy: device sign-in refused');
          o.meter?.refused('sign-in');
          ctx.reject();
        },
      );
    });

    client.on('request', (accept, reject, name, bind) => {
      const { deviceId } = signIn;
      if (!deviceId || (name !== 'tcpip-forward' && name !== 'cancel-tcpip-forward')) return reject?.();
      if (name === 'cancel-tcpip-forward') {
        // Answered once the console has the new state: whoever asked for the disconnect reads it next.
        const tunnel = forwards.get(bind.bindPort);
        return void (tunnel ? close(tunnel) : Promise.resolve()).then(() => accept?.());
      }
      void open(deviceId, bind.bindAddr, bind.bindPort).then((ok) => (ok ? accept?.(bind.bindPort) : reject?.()));
    });

    // A device forwards its ports here; it has nothing to run on the proxy.
    client.on('session', (_accept, reject) => reject());
    client.on('tcpip', (_accept, reject) => reject());
    client.on('error', (err) => o.log.warn({ ...peer, deviceId: signIn.deviceId, err: err.message }, 'proxy: SSH connection error'));
    client.on('close', () => {
      gone = true;
      signIns.delete(client);
      void Promise.all([...forwards.values()].map(close)).then(() => {
        connections.delete(client);
        settle();
      });
    });

    async function open(device: string, bindAddr: string, bindPort: number): Promise<boolean> {
      const refuse = (reason: string) => {
        o.log.warn({ ...peer, deviceId: device, port: bindPort, err: reason }, 'proxy: forward refused');
        o.meter?.refused('forward');
        return false;
      };
      if (forwards.has(bindPort)) return refuse(`Port ${bindPort} is forwarded already on this connection.`);
      let fwd;
      try {
        fwd = await o.console.forward(device, bindPort, signIn.credential!);
      } catch (err) {
        return refuse((err as Error).message);
      }
      if (fwd.type === 'HTTP' && !fwd.path) return refuse('The console named no path for this HTTP tunnel.');
      if (gone || signIn.revoked) return refuse('The connection closed before the forward was set up.');
      const tunnel: Forward = {
        tunnelId: fwd.tunnelId,
        deviceId: device,
        hostname: fwd.type === 'HTTP' ? `${fwd.path}.${fwd.customDomain ?? o.domain}` : null,
        connection: client,
        bindAddr,
        bindPort,
        allow: allowList(fwd.allow),
        credentials: fwd.username && fwd.passwordHash ? { tunnelId: fwd.tunnelId, username: fwd.username, passwordHash: fwd.passwordHash } : undefined,
      };
      forwards.set(bindPort, tunnel);
      try {
        if (!tunnel.hostname) tunnel.listener = await o.tcp.open(tunnel);
        o.table.add(tunnel);
        const mapping = o.mappingOf(tunnel.hostname ? { hostname: tunnel.hostname } : { port: tunnel.listener!.port });
        await o.console.state({ tunnelId: tunnel.tunnelId, deviceId: device, state: 'CONNECTED', mapping });
      } catch (err) {
        forwards.delete(bindPort);
        o.table.remove(tunnel);
        await tunnel.listener?.close();
        // The person connecting it hears why from the console: SSH has no words for a refused forward.
        if (err instanceof NoTcpPort) {
          await o.console
            .state({ tunnelId: tunnel.tunnelId, deviceId: device, state: 'DISCONNECTED', mapping: null, refusal: err.message })
            .catch((e: Error) => o.log.warn({ tunnelId: tunnel.tunnelId, err: e.message }, 'proxy: cannot report why a tunnel was refused'));
        }
        return refuse((err as Error).message);
      }
      // Closed while the console was told: the close saw no forward yet, so this one reports it.
      if (gone || signIn.revoked) {
        await close(tunnel);
        return false;
      }
      o.log.info({ deviceId: device, tunnelId: tunnel.tunnelId, hostname: tunnel.hostname, port: tunnel.listener?.port }, 'proxy: tunnel connected');
      return true;
    }

    async function close(tunnel: Forward): Promise<void> {
      if (forwards.get(tunnel.bindPort) !== tunnel) return;
      forwards.delete(tunnel.bindPort);
      await tunnel.listener?.close();
      // A newer connection of the device may hold the tunnel now: then it is still up.
      if (!o.table.remove(tunnel)) return;
      o.log.info({ deviceId: tunnel.deviceId, tunnelId: tunnel.tunnelId }, 'proxy: tunnel disconnected');
      await o.console
        .state({ tunnelId: tunnel.tunnelId, deviceId: tunnel.deviceId, state: 'DISCONNECTED', mapping: null })
        .catch((err: Error) => o.log.warn({ tunnelId: tunnel.tunnelId, err: err.message }, 'proxy: cannot report a disconnected tunnel'));
    }
  });
  // Every TCP connection, from its first byte (ssh2 tells of one only once it sent its SSH version).
  (server as unknown as { _srv: NetServer })._srv.on('connection', (socket: Socket) => deadlines.admit(socket));

  /** A device has at most SSH_PER_DEVICE connections: one more ends its oldest (likely one its agent already left). */
  function endOldest(deviceId: string, newest: Connection) {
    const held = [...signIns].filter(([c, s]) => c !== newest && s.deviceId === deviceId && !s.revoked);
    if (held.length < SSH_PER_DEVICE) return;
    o.log.warn({ deviceId }, `proxy: SSH connection ended: the device signed in a ${SSH_PER_DEVICE + 1}th time`);
    held[0]![1].revoke();
  }

  // A server closes once its connections have: the proxy's own stop ends them rather than wait.
  return {
    server,
    endAll: () => connections.forEach((_, client) => client.end()),
    endDevices(deviceIds) {
      signIns.forEach((signIn, client) => {
        if (!signIn.as || !deviceIds.has(signIn.as)) return;
        o.log.info({ deviceId: signIn.as }, 'proxy: SSH connection ended: the device was deleted, re-keyed or moved');
        signIn.revoke();
      });
    },
    settled: async () => void (await Promise.all(connections.values())),
    connections: () => connections.size,
  };
}
