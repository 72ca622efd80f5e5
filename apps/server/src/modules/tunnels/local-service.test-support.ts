import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as connectTcp, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { WebSocketServer } from 'ws';

/** What the device's service saw of a request that came through a tunnel. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bodyBytes: number;
  /** Settles once the connection that carried the request has closed. */
  connectionClosed: Promise<void>;
}

export interface LocalService {
  port: number;
  /** Every request it answered, oldest first. */
  seen: SeenRequest[];
  /** How many connections it accepted. */
  readonly connections: number;
  close(): Promise<void>;
}

/**
 * A service on this machine for tunnels to reach, as one on a device would be: `/` answers a page
 * naming `title`, `/echo` the request it saw as JSON, `/upload` counts the body it streamed in,
 * `/events` sends Server-Sent Events, `/early` answers 413 without reading the body, and any
 * WebSocket echoes what it gets.
 */
export async function startLocalService(title = 'Hello from the device'): Promise<LocalService> {
  const seen: SeenRequest[] = [];
  // One promise per connection, however many requests it carries.
  const closed = new WeakMap<Socket, Promise<void>>();
  const closedOf = (socket: Socket) => {
    if (!closed.has(socket)) closed.set(socket, new Promise<void>((resolve) => (socket.closed ? resolve() : socket.once('close', () => resolve()))));
    return closed.get(socket)!;
  };
  const server: Server = createServer((req, res) => {
    const connectionClosed = closedOf(req.socket);
    if (req.url === '/early') {
      seen.push({ method: req.method ?? '', url: req.url, headers: req.headers, bodyBytes: 0, connectionClosed });
      res.writeHead(413, { 'content-type': 'text/plain' });
      return res.end('Too large');
    }
    let bodyBytes = 0;
    req.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, bodyBytes };
      seen.push({ ...request, connectionClosed });
      if (req.url === '/events') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        let n = 0;
        const timer = setInterval(() => {
          res.write(`data: tick ${++n}\n\n`);
          if (n === 3) {
            clearInterval(timer);
            res.end();
          }
        }, 100);
        return;
      }
      if (req.url?.startsWith('/echo') || req.url === '/upload') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(request));
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`);
    });
  });
  let connections = 0;
  server.on('connection', () => connections++);
  const sockets = new WebSocketServer({ server });
  sockets.on('connection', (ws) => ws.on('message', (data, binary) => ws.send(binary ? data : `echo: ${data.toString()}`)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of sockets.clients) c.terminate();
        sockets.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A TCP service on this machine that sends back whatever it gets, for TCP tunnels to reach. */
export async function startTcpEcho(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => (sockets.forEach((s) => s.destroy()), server.close(() => resolve()))),
  };
}

/** Sends `data` to a TCP port, half-closes, and answers what came back until the other side closed (or the error). */
export function tcpExchange(port: number, data: Buffer): Promise<{ received: Buffer; error?: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connectTcp({ port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.end(data));
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', (err: NodeJS.ErrnoException) => resolve({ received: Buffer.concat(chunks), error: err.code ?? err.message }));
    socket.on('close', () => resolve({ received: Buffer.concat(chunks) }));
    setTimeout(() => socket.destroy(), 10_000).unref();
  });
}

/** A GET to a proxy's ingress on this machine as a browser sends it to `http://{hostname}:{port}/`. */
export function ingressGet(port: number, hostname: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', headers: { host: `${hostname}:${port}` } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A GET to a proxy's HTTPS ingress on this machine by the name a browser would use, trusting `ca`;
 * a refused handshake answers status 0 with its message.
 */
export function ingressGetTls(port: number, hostname: string, ca: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = httpsRequest({ host: '127.0.0.1', port, servername: hostname, headers: { host: `${hostname}:${port}` }, ca, path: '/' }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', (err) => resolve({ status: 0, body: err.message }));
    req.end();
  });
}
