import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { cutSlowRequests, hasBody, SLOW_BODY_MESSAGE, slowHeaderOptions } from '@fleetlink/contract/slow-requests';
import { addressAllowed, type CredentialCheck } from './access.js';
import { remember } from './bounded-map.js';
import { asSocket, ChannelAgent } from './channel-agent.js';
import type { ProxyLog } from './log.js';
import type { ProxyMeter } from './proxy-metrics.js';
import { errorPage, pageTexts } from './pages.js';
import { openChannel, type HttpTunnel, type TunnelTable } from './tunnel-table.js';

export interface IngressOptions {
  table: TunnelTable;
  credentials: CredentialCheck;
  log: ProxyLog;
  /** Whether a host name belongs to a registered tunnel that is not connected here (502, not 404). */
  isKnownHost(hostname: string): Promise<boolean>;
  /** A certificate and its key (PEM): the ingress then serves HTTPS. */
  tls?: { cert: Buffer; key: Buffer };
  meter?: ProxyMeter;
}

type Refusal = { status: number; message: string; challenge?: string };

/** Headers a proxy owns: hop-by-hop ones, and what it says itself about the client. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'proxy-authorization']);
const FORWARDED = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port', 'x-real-ip', 'forwarded'];

/**
 * The HTTP ingress: routes by Host (`{path}.{domain}`) to a connected tunnel, after its allow-list
 * (checked against the connection's address) and its Basic credentials; nothing reaches the device
 * before both pass. Bodies stream both ways (large files, Server-Sent Events), WebSockets too.
 */
export function createIngress(o: IngressOptions): { server: Server | TlsServer; endAll(): void } {
  const scheme = o.tls ? 'https' : 'http';
  const knownHosts = new KnownHosts(o.isKnownHost);
  // Upgraded connections (WebSockets) are the server's no longer, but still keep it from closing.
  const upgraded = new Set<Duplex>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (o.meter) res.once('finish', () => o.meter!.answered(res.statusCode));
    void serve(req, res);
  };
  const server = o.tls ? createTlsServer({ cert: o.tls.cert, key: o.tls.key, ...slowHeaderOptions() }, handler) : createServer(slowHeaderOptions(), handler);
  cutSlowRequests(server, (res) => {
    const page = errorPage(408, SLOW_BODY_MESSAGE);
    res.writeHead(page.status, { ...page.headers, 'content-length': Buffer.byteLength(page.body) }).end(page.body);
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => void upgrade(req, socket, head));
  if (o.meter) server.on('connection', (socket: Socket) => o.meter!.connection(socket));
  // What Node cannot parse as HTTP gets the plain 400 it would send itself.
  server.on('clientError', (_err, socket) => (socket.writable ? socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n') : socket.destroy()));

  async function admit(req: IncomingMessage): Promise<{ tunnel: HttpTunnel } | Refusal> {
    // Node keeps only the first of repeated Host or Authorization headers; a request with two is ambiguous.
    const hosts = count(req, 'host');
    if (hosts !== 1) return { status: 400, message: hosts ? pageTexts.twoHosts : pageTexts.noHost };
    if (count(req, 'authorization') > 1) return { status: 400, message: pageTexts.twoAuthorizations };
    const host = hostname(req.headers.host!);
    const tunnel = o.table.get(host);
    if (!tunnel) {
      const known = await knownHosts.isKnown(host);
      return known ? { status: 502, message: pageTexts.down(host) } : { status: 404, message: pageTexts.unknownHost(host) };
    }
    const address = req.socket.remoteAddress;
    if (!addressAllowed(tunnel.allow, address)) return { status: 403, message: pageTexts.forbidden };
    if (tunnel.credentials) {
      const verdict = await o.credentials.check(tunnel.credentials, req.headers.authorization, address ?? '');
      if (verdict === 'blocked') return { status: 429, message: pageTexts.tooManyFailures };
      if (verdict === 'refused') return { status: 401, message: pageTexts.unauthorized, challenge: 'Basic realm="Fleetlink tunnel", charset="UTF-8"' };
    }
    return { tunnel };
  }

  /** Each connected tunnel's keep-alive channels; they end with the tunnel. */
  const agents = new Map<HttpTunnel, ChannelAgent>();
  const agentOf = (tunnel: HttpTunnel) => agents.get(tunnel) ?? agents.set(tunnel, new ChannelAgent(tunnel)).get(tunnel)!;
  o.table.onRemove((tunnel) => {
    agents.get(tunnel as HttpTunnel)?.destroy();
    agents.delete(tunnel as HttpTunnel);
  });

  /** An upgrade admitted and a channel of its own to the device opened for it, or why not. */
  async function reachDevice(req: IncomingMessage): Promise<{ tunnel: HttpTunnel; channel: Socket } | Refusal> {
    const admitted = await admit(req);
    if (!('tunnel' in admitted)) return admitted;
    try {
      return { tunnel: admitted.tunnel, channel: asSocket(await openChannel(admitted.tunnel, req.socket)) };
    } catch {
      return { status: 502, message: pageTexts.unreachable(admitted.tunnel.hostname) };
    }
  }

  async function serve(req: IncomingMessage, res: ServerResponse) {
    const admitted = await admit(req);
    if (!('tunnel' in admitted)) return refuse(res, admitted);
    const { tunnel } = admitted;
    const headers = upstreamHeaders(req, tunnel, scheme);
    // Node has decoded a chunked body (it refuses one that also has a length, or another coding):
    // it goes on chunked, whatever the method. Node's client frames a GET, DELETE or OPTIONS body
    // only when told to: unframed, it would be read by the device's service as a request of its own.
    if (req.headers['transfer-encoding'] !== undefined) headers['transfer-encoding'] = 'chunked';
    const upstream = request({ method: req.method, path: req.url, headers, agent: agentOf(tunnel) });
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, withoutHopByHop(answer.headers));
      // A stream of unknown length (Server-Sent Events) gets its headers now; a sized answer goes
      // out with its body, in one write.
      if (answer.headers['content-length'] === undefined) res.flushHeaders();
      forward(answer, res);
      // An answer that ended before the request was all sent leaves the exchange half done: its
      // channel is closed rather than handed to the next request.
      answer.on('end', () => {
        if (!upstream.writableFinished) upstream.destroy();
      });
    });
    upstream.on('error', () => {
      if (!res.headersSent) refuse(res, { status: 502, message: pageTexts.unreachable(tunnel.hostname) });
      else if (!res.writableEnded) res.destroy();
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    // A request without a body (most are) ends at once: piping it would cost more than the request.
    if (hasBody(req)) req.pipe(upstream);
    else upstream.end();
  }

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    upgraded.add(socket);
    socket.on('close', () => upgraded.delete(socket));
    socket.on('error', () => socket.destroy());
    const reached = await reachDevice(req);
    if (!('tunnel' in reached)) return refuseRaw(socket, reached);
    const { tunnel, channel } = reached;
    const headers = { ...upstreamHeaders(req, tunnel, scheme), connection: 'Upgrade', upgrade: req.headers.upgrade ?? 'websocket' };
    const upstream = request({ method: req.method, path: req.url, headers, createConnection: () => channel });
    upstream.on('upgrade', (answer, upSocket, upHead) => {
      socket.write(statusLine(answer) + rawHeaderLines(answer.rawHeaders) + '\r\n');
      if (upHead.length) socket.write(upHead);
      if (head.length) upSocket.write(head);
      upSocket.pipe(socket).pipe(upSocket);
      upSocket.on('error', () => socket.destroy());
      upSocket.on('close', () => socket.destroy());
      socket.on('close', () => upSocket.destroy());
    });
    // The device's service declined the upgrade: its answer goes back as it is.
    upstream.on('response', (answer) => {
      socket.write(statusLine(answer) + rawHeaderLines(answer.rawHeaders, true) + 'connection: close\r\n\r\n');
      answer.pipe(socket);
    });
    upstream.on('error', () => refuseRaw(socket, { status: 502, message: pageTexts.unreachable(tunnel.hostname) }));
    upstream.end();
  }

  function refuse(res: ServerResponse, r: Refusal) {
    o.meter?.refused('ingress');
    const page = errorPage(r.status, r.message);
    res.writeHead(page.status, { ...page.headers, ...(r.challenge ? { 'www-authenticate': r.challenge } : {}) });
    res.end(page.body);
    if (r.status >= 500) o.log.warn({ status: r.status }, `proxy: ${r.message}`);
  }

  function refuseRaw(socket: Duplex, r: Refusal) {
    if (socket.destroyed) return;
    o.meter?.refused('ingress');
    const page = errorPage(r.status, r.message);
    const headers = { ...page.headers, ...(r.challenge ? { 'www-authenticate': r.challenge } : {}), 'content-length': String(Buffer.byteLength(page.body)), connection: 'close' };
    socket.end(`HTTP/1.1 ${page.status} ${page.status}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${page.body}`);
  }

  return {
    server,
    endAll() {
      agents.forEach((agent) => agent.destroy());
      server.closeAllConnections();
      upgraded.forEach((socket) => socket.destroy());
    },
  };
}

const KNOWN_HOSTS_MAX = 1000;
const KNOWN_HOSTS_MS = 10_000;

/**
 * Whether a host name is a registered tunnel, remembered for a few seconds: a scanner trying names
 * costs the console one question per name and ten seconds, not one per request.
 */
class KnownHosts {
  private readonly answers = new Map<string, { known: boolean; until: number }>();

  constructor(private readonly ask: (hostname: string) => Promise<boolean>) {}

  async isKnown(hostname: string): Promise<boolean> {
    const cached = this.answers.get(hostname);
    if (cached && cached.until > Date.now()) return cached.known;
    const known = await this.ask(hostname).catch(() => false);
    remember(this.answers, hostname, { known, until: Date.now() + KNOWN_HOSTS_MS }, KNOWN_HOSTS_MAX);
    return known;
  }
}

/** How many times a header came in the request, whatever its case. */
function count(req: IncomingMessage, name: string): number {
  let n = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.length === name.length && req.rawHeaders[i]!.toLowerCase() === name) n++;
  return n;
}

/**
 * The device's answer to the client, as it comes, held back while the client reads slower: what
 * pipe() does, with the four listeners an answer needs and none of pipe()'s bookkeeping (the
 * ingress does this thousands of times a second).
 */
function forward(answer: IncomingMessage, res: ServerResponse) {
  answer.on('data', (chunk: Buffer) => {
    if (!res.write(chunk)) answer.pause();
  });
  res.on('drain', () => answer.resume());
  answer.on('end', () => res.end());
  answer.on('error', () => res.destroy());
}

/** The host name of a Host header: lowercase, without its port or a trailing dot. */
export function hostname(host: string): string {
  const bare = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  return bare.toLowerCase().replace(/\.$/, '');
}

/**
 * The request's headers as the device's service gets them: what the client said about itself
 * through proxies is dropped and replaced by what this proxy saw, and the tunnel's own
 * credentials never reach the device.
 */
function upstreamHeaders(req: IncomingMessage, tunnel: HttpTunnel, scheme: string): IncomingHttpHeaders {
  const headers = withoutHopByHop(req.headers);
  for (const h of FORWARDED) delete headers[h];
  if (tunnel.credentials) delete headers.authorization;
  const address = req.socket.remoteAddress ?? '';
  headers['x-forwarded-for'] = address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
  headers['x-forwarded-proto'] = scheme;
  headers['x-forwarded-host'] = req.headers.host;
  return headers;
}

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const listed = headers.connection === undefined ? [] : headers.connection.split(',').map((s) => s.trim().toLowerCase());
  const kept: IncomingHttpHeaders = {};
  for (const k in headers) if (!HOP_BY_HOP.has(k) && !listed.includes(k)) kept[k] = headers[k];
  return kept;
}

const statusLine = (answer: IncomingMessage) => `HTTP/1.1 ${answer.statusCode} ${answer.statusMessage ?? ''}\r\n`;

function rawHeaderLines(raw: string[], dropHopByHop = false): string {
  let out = '';
  for (let i = 0; i < raw.length; i += 2) {
    if (dropHopByHop && HOP_BY_HOP.has(raw[i]!.toLowerCase())) continue;
    out += `${raw[i]}: ${raw[i + 1]}\r\n`;
  }
  return out;
}
