import type { Socket } from 'node:net';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';

/** What the proxy's parts tell the metrics: refusals, ingress answers, and the connections whose bytes count. */
export interface ProxyMeter {
  refused(kind: 'sign-in' | 'forward' | 'ingress' | 'tcp'): void;
  /** An HTTP ingress answer, the refusals' included. */
  answered(status: number): void;
  /** A client's connection to the ingress or a TCP tunnel: its bytes count when it closes. */
  connection(socket: Socket): void;
}

/**
 * A standalone proxy's Prometheus metrics (issue 67), served on PROXY_METRICS_PORT: its SSH
 * connections and tunnels (read when scraped), the bytes its tunnels carried, its refusals, its
 * ingress answers by status, and Node's own (event loop, memory).
 */
export class ProxyMetrics implements ProxyMeter {
  readonly registry = new Registry();
  private counts?: { sshConnections(): number; tunnels(): number };

  private readonly refusals = new Counter({
    name: 'fleetlink_proxy_refusals_total',
    help: 'Refused by the proxy: device sign-ins, forwards, ingress requests (any 4xx/5xx it answered itself), TCP connections (allow-list)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  private readonly answers = new Counter({
    name: 'fleetlink_proxy_http_requests_total',
    help: 'HTTP ingress answers by status, the tunnels\u2019 own and the proxy\u2019s refusals',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  private readonly bytes = new Counter({
    name: 'fleetlink_proxy_bytes_total',
    help: 'Bytes of the ingress and TCP tunnel connections that closed, received from and sent to clients',
    labelNames: ['direction'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const metrics = this;
    new Gauge({
      name: 'fleetlink_proxy_ssh_connections',
      help: 'SSH connections of devices open now',
      registers: [this.registry],
      collect() {
        this.set(metrics.counts?.sshConnections() ?? 0);
      },
    });
    new Gauge({
      name: 'fleetlink_proxy_tunnels',
      help: 'Tunnels connected now',
      registers: [this.registry],
      collect() {
        this.set(metrics.counts?.tunnels() ?? 0);
      },
    });
  }

  watch(counts: { sshConnections(): number; tunnels(): number }): void {
    this.counts = counts;
  }

  refused(kind: 'sign-in' | 'forward' | 'ingress' | 'tcp'): void {
    this.refusals.inc({ kind });
  }

  answered(status: number): void {
    this.answers.inc({ status: String(status) });
  }

  connection(socket: Socket): void {
    socket.once('close', () => {
      this.bytes.inc({ direction: 'in' }, socket.bytesRead);
      this.bytes.inc({ direction: 'out' }, socket.bytesWritten);
    });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
