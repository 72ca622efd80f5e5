import { once } from 'node:events';
import type { Server as NetServer } from 'node:net';
import { CredentialCheck } from './access.js';
import { ConsoleClient } from './console-client.js';
import { createIngress } from './ingress.js';
import type { ProxyLog } from './log.js';
import type { ProxyMetrics } from './proxy-metrics.js';
import { RevocationWatch } from './revocation-watch.js';
import { createSshServer } from './ssh-server.js';
import { TcpPorts, type PortRange } from './tcp-ports.js';
import { TunnelTable } from './tunnel-table.js';

export interface ProxyOptions {
  /** Where the console's proxy API is (`/api/proxy/…`). */
  consoleUrl: string;
  /** The PROXY server this proxy is, and its password at the console. */
  serverId: string;
  password: string;
  /** The SSH host key (private, OpenSSH format) whose public half is the server's `hostKey`. */
  hostKey: string;
  ssh: { host: string; port: number };
  http: { host: string; port: number };
  /** TCP tunnels are served on a port of this range, at `{domain}:{port}`; one device has at most `maxPerDevice`. */
  tcp: { host: string; ports: PortRange; maxPerDevice: number };
  /** HTTP tunnels are served at `{path}.{domain}`. */
  domain: string;
  /** A certificate and its key (PEM) for the ingress: tunnels are then at `https://{path}.{domain}`. */
  tls?: { cert: Buffer; key: Buffer };
  log: ProxyLog;
  /** Its Prometheus metrics (the standalone proxy's PROXY_METRICS_PORT); none for the console's built-in one. */
  metrics?: ProxyMetrics;
}

export interface RunningProxy {
  sshPort: number;
  httpPort: number;
  /** How many tunnels are connected now. */
  readonly tunnels: number;
  close(): Promise<void>;
}

/** A listener the proxy could not open at start: which one, where, and the reason in words. */
export class ProxyStartError extends Error {
  constructor(
    readonly part: 'ssh' | 'http',
    readonly at: { host: string; port: number },
    readonly reason: string,
  ) {
    super(`The tunnel proxy's ${part === 'ssh' ? 'SSH server' : 'HTTP ingress'} cannot start: ${reason}.`);
  }
}

/** How long closing waits for connections to end before it stops waiting. */
const CLOSE_DEADLINE_MS = 10_000;

/** Starts the SSH server and the HTTP ingress; either port taken stops the start with a clear error. */
export async function startProxy(o: ProxyOptions): Promise<RunningProxy> {
  const consoleApi = new ConsoleClient(o.consoleUrl, { serverId: o.serverId, password: o.password });
  const table = new TunnelTable();
  let httpPort = o.http.port;
  const scheme = o.tls ? 'https' : 'http';
  const defaultPort = o.tls ? 443 : 80;
  const mappingOf = (at: { hostname: string } | { port: number }) =>
    'port' in at ? `${o.domain}:${at.port}` : `${scheme}://${at.hostname}${httpPort === defaultPort ? '' : `:${httpPort}`}`;
  const meter = o.metrics;
  const tcp = new TcpPorts({ host: o.tcp.host, range: o.tcp.ports, maxPerDevice: o.tcp.maxPerDevice, log: o.log, meter });
  const sshServer = createSshServer({ hostKey: o.hostKey, console: consoleApi, table, tcp, log: o.log, mappingOf, domain: o.domain, meter });
  const { server: ssh, endAll: endSsh, endDevices, settled } = sshServer;
  meter?.watch({ sshConnections: () => sshServer.connections(), tunnels: () => table.size });
  const isKnownHost = async (hostname: string) => {
    const at = tunnelAddress(hostname, o.domain);
    return !!at && consoleApi.hostKnown(at);
  };
  const { server: ingress, endAll: endIngress } = createIngress({ table, credentials: new CredentialCheck(), log: o.log, isKnownHost, tls: o.tls, meter });
  const started: NetServer[] = [];
  const revocations = new RevocationWatch({ read: (after) => consoleApi.revocations(after), who: 'proxy', log: o.log, endDevices, endAll: endSsh });
  try {
    // Before any device can sign in: what is revoked from now on reaches its connections.
    await revocations.start();
    const sshPort = await listen(ssh as unknown as NetServer, o.ssh, 'ssh');
    started.push(ssh as unknown as NetServer);
    httpPort = await listen(ingress, o.http, 'http');
    started.push(ingress);
    await consoleApi.hello(o.domain);
    o.log.info({ ssh: `${o.ssh.host}:${sshPort}`, [scheme]: `${o.http.host}:${httpPort}`, domain: o.domain }, 'proxy: listening');
    return {
      sshPort,
      httpPort,
      get tunnels() {
        return table.size;
      },
      async close() {
        revocations.stop();
        endIngress();
        endSsh();
        // Bounded: a connection that never finishes closing must not hold the console's shutdown.
        const closed = Promise.all([...started.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))), settled()]).then(() => true);
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_DEADLINE_MS)));
        if (!(await Promise.race([closed, deadline]))) o.log.warn({ afterMs: CLOSE_DEADLINE_MS }, 'proxy: closed with connections still ending');
        clearTimeout(timer);
      },
    };
  } catch (err) {
    revocations.stop();
    endIngress();
    for (const s of started) s.close();
    throw err;
  }
}

async function listen(server: NetServer, at: { host: string; port: number }, part: 'ssh' | 'http'): Promise<number> {
  server.listen(at.port, at.host);
  try {
    await once(server, 'listening');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const reason = e.code === 'EADDRINUSE' ? `port ${at.port} is already in use on ${at.host}` : e.code === 'EACCES' ? `no permission to listen on ${at.host}:${at.port}` : e.message;
    throw new ProxyStartError(part, at, reason);
  }
  return (server.address() as { port: number }).port;
}

/** A host name as the console knows tunnels: a path on this proxy's domain, or the first label on a custom one. */
export function tunnelAddress(hostname: string, domain: string): { path: string; customDomain: string | null } | undefined {
  const own = `.${domain}`;
  if (hostname.endsWith(own) && !hostname.slice(0, -own.length).includes('.')) return { path: hostname.slice(0, -own.length), customDomain: null };
  const dot = hostname.indexOf('.');
  return dot > 0 && dot < hostname.length - 1 ? { path: hostname.slice(0, dot), customDomain: hostname.slice(dot + 1) } : undefined;
}
