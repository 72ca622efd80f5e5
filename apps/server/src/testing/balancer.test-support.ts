import http from 'node:http';
import net, { type AddressInfo } from 'node:net';

export interface Balancer {
  url: string;
  /** The consoles' ports, taken in turn; one that refuses connections is passed over. */
  backends: number[];
  /** Requests each backend got, by port. */
  served: Map<number, number>;
  close(): Promise<void>;
}

/**
 * A load balancer as the README asks for one: round robin over the consoles, nothing sticky. Only
 * the consoles are behind it; agents, proxies and browsers reach every console through it, at the
 * one PUBLIC_URL they share. A GET refused by a console that is gone goes to the next one; a request
 * already sent to one that dies fails, as it would behind a real balancer (a test takes a dead
 * console out of `backends`, as a health check would). A WebSocket upgrade (the live channel) is
 * passed through to the next console as it came, bytes both ways, as a balancer does.
 */
export async function startBalancer(port = 0): Promise<Balancer> {
  let next = 0;
  const b: Balancer = { url: '', backends: [], served: new Map(), close: () => Promise.resolve() };
  const server = http.createServer((req, res) => {
    const tryBackend = (left: number) => {
      const port = b.backends[next++ % b.backends.length];
      if (port === undefined || left === 0) {
        res.writeHead(502).end('no console answers');
        return;
      }
      const out = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        b.served.set(port, (b.served.get(port) ?? 0) + 1);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.on('error', (err: NodeJS.ErrnoException) => {
        // Refused: a request without a body goes to the next console, as a balancer retries one.
        if (err.code === 'ECONNREFUSED' && !res.headersSent && (req.method === 'GET' || req.method === 'HEAD')) return tryBackend(left - 1);
        res.destroy(err);
      });
      req.pipe(out);
    };
    tryBackend(b.backends.length);
  });
  const tunnels = new Set<net.Socket>();
  server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const port = b.backends[next++ % b.backends.length];
    if (port === undefined) return socket.destroy();
    const upstream = net.connect(port, '127.0.0.1', () => {
      const headers = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${req.method} ${req.url} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
    for (const s of [socket, upstream]) {
      tunnels.add(s);
      s.on('close', () => tunnels.delete(s));
    }
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  b.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  b.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      tunnels.forEach((s) => s.destroy());
      server.close(() => resolve());
    });
  return b;
}
