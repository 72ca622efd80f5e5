/**
 * The two ends of the traffic the tunnel benchmarks time, in a process of their own so the console
 * and proxy they measure do not share its event loop (bench/tunnel-tcp.ts, bench/tunnel-http.ts).
 * Asked over IPC:
 *   { op: 'sink' }                       → { port }: a TCP service that counts what it gets, answers the count at the end
 *   { op: 'send', port, bytes }          → { ms }: sends `bytes` to the port, half-closes, until the count came back
 *   { op: 'http-service' }               → { port }: an HTTP service answering a small page
 *   { op: 'http-proxy', port }           → { port }: a bare Node HTTP reverse proxy to that port (the reference for the ingress)
 *   { op: 'http-load', port, host, rate, seconds, connections } → { sent, errors, latencies }: GETs at a fixed rate
 * It goes when the benchmark that started it goes, whichever way that ends.
 */
import http from 'node:http';
import net from 'node:net';

const CHUNK = Buffer.alloc(1024 * 1024, 'fleetlink ');

function sink(): Promise<number> {
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    let count = 0;
    socket.on('data', (d: Buffer) => (count += d.length));
    socket.on('end', () => socket.end(String(count)));
    socket.on('error', () => socket.destroy());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
}

function send(port: number, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let answer = '';
    let left = bytes;
    const write = () => {
      while (left > 0) {
        const part = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
        left -= part.length;
        if (!socket.write(part)) return void socket.once('drain', write);
      }
      socket.end();
    };
    socket.on('connect', write);
    socket.on('data', (d) => (answer += d));
    socket.on('end', () => (Number(answer) === bytes ? resolve(performance.now() - started) : reject(new Error(`the sink counted ${answer} of ${bytes} bytes`))));
    socket.on('error', reject);
  });
}

function httpService(): Promise<number> {
  const page = Buffer.from('<!doctype html><title>device</title><h1>Hello from the device</h1>');
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html', 'content-length': page.length }).end(page));
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
}

/**
 * A reverse proxy as plain as Node makes one: its HTTP server and a keep-alive HTTP client, without
 * SSH, an agent or anything the ingress checks. What Node's HTTP costs on this machine, beside which
 * the tunnel's figures read.
 */
function httpProxy(target: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxFreeSockets: 64 });
  const server = http.createServer((req, res) => {
    const upstream = http.request({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
}

/**
 * GETs at a fixed rate over a pool of keep-alive connections. A request's latency counts from when
 * it was due, not from when it left: a slow answer delays the ones behind it, and that shows.
 */
async function httpLoad(o: { port: number; host: string; rate: number; seconds: number; connections: number }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.connections, maxFreeSockets: o.connections });
  const latencies: number[] = [];
  let errors = 0;
  let sent = 0;
  const total = o.rate * o.seconds;
  const start = performance.now();
  const pending = new Set<Promise<void>>();
  const one = (due: number) =>
    new Promise<void>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port: o.port, path: '/', agent, headers: { host: o.host } }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) latencies.push(performance.now() - due);
          else errors++;
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end();
    });
  while (sent < total) {
    const now = performance.now();
    const due = Math.floor(((now - start) / 1000) * o.rate);
    for (; sent < Math.min(due, total); sent++) {
      const p = one(start + (sent / o.rate) * 1000);
      pending.add(p);
      void p.then(() => pending.delete(p));
    }
    // A timer, not setImmediate: spinning would take the core the measured processes need.
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(pending);
  agent.destroy();
  return { sent, errors, latencies };
}

const ops: Record<string, (m: Record<string, unknown>) => Promise<object>> = {
  sink: () => sink().then((port) => ({ port })),
  send: (m) => send(m.port as number, m.bytes as number).then((ms) => ({ ms })),
  'http-service': () => httpService().then((port) => ({ port })),
  'http-proxy': (m) => httpProxy(m.port as number).then((port) => ({ port })),
  'http-load': (m) => httpLoad(m as unknown as Parameters<typeof httpLoad>[0]),
};

process.on('message', (m: { id: number; op: string; [k: string]: unknown }) => {
  void ops[m.op]!(m).then(
    (result) => process.send!({ id: m.id, ...result }),
    (err: Error) => process.send!({ id: m.id, error: err.message }),
  );
});
// The benchmark ended (or failed before it could stop this process): nothing is left running.
process.on('disconnect', () => process.exit(0));
