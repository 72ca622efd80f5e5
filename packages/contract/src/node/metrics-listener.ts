import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const safeEqual = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export interface MetricsListener {
  /** Where it listens (its port, when 0 was asked for). */
  address: AddressInfo;
  close(): Promise<void>;
}

/**
 * The metrics listener (issue 67): GET /metrics on a port of its own, so that nothing of it is on
 * the public API, bound to loopback unless a bearer token guards it (each one's configuration
 * checks that). The console and the standalone proxy serve their own registry's text with it.
 */
export async function startMetricsListener(o: { host: string; port: number; token?: string; text: () => Promise<string>; contentType: string }): Promise<MetricsListener> {
  const server: Server = createServer((req, res) => {
    const answer = (status: number, body: string, type = 'text/plain; charset=utf-8') => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') return answer(404, 'Not found: the metrics are at /metrics.\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(405, 'Only GET reads the metrics.\n');
    if (o.token && !safeEqual(req.headers.authorization ?? '', `Bearer ${o.token}`)) {
      res.setHeader('www-authenticate', 'Bearer');
      return answer(401, 'The metrics need the bearer token METRICS_TOKEN.\n');
    }
    o.text().then(
      (text) => answer(200, text, o.contentType),
      (err: Error) => answer(503, `The metrics could not be read: ${err.message}\n`),
    );
  });
  // A scraper that stalls is cut off: every connection has a deadline.
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  return {
    address: server.address() as AddressInfo,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
