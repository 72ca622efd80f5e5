import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../../db/client.js';
import type { MessageHub } from '../broker/message-hub.js';
import type { ServersRepository } from '../servers/servers.repository.js';
import { proxyCalling } from '../tunnels/proxy-liveness.js';

/** A database read for a gauge: with the database away the gauge is empty, and the scrape still answers the rest. */
async function readOrNone<T>(read: () => Promise<T[]> | undefined): Promise<T[]> {
  try {
    return (await read()) ?? [];
  } catch {
    return [];
  }
}

/** What the gauges read at each scrape, once the console's parts are up. */
export interface MetricSources {
  database: Pick<Database, 'pools'>;
  hub: Pick<MessageHub, 'isConnected' | 'telemetryCounts' | 'sessionCounts'>;
  servers: Pick<ServersRepository, 'liveness' | 'onlineDevicesByServer'>;
}

/**
 * One console's Prometheus metrics (issue 67), in a registry of its own (two consoles in one test
 * process keep theirs apart). Counters are counted as things happen (HTTP answers, enrollment
 * refusals); what the console already knows (devices online, connections, the pool, the hub's
 * message counts) is read when scraped, so a console that is never scraped does no work for it.
 */
export class ConsoleMetrics {
  readonly registry = new Registry();
  private sources?: MetricSources;

  private readonly httpRequests = new Counter({
    name: 'fleetlink_http_requests_total',
    help: 'HTTP requests answered, by route (its pattern), method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  private readonly httpDuration = new Histogram({
    name: 'fleetlink_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly enrollmentRefusals = new Counter({
    name: 'fleetlink_enrollment_refusals_total',
    help: 'Agent enrollments answered with an error, by status (401/403/404 refused, 429 too many from one address or at once, 503 no message server)',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const metrics = this;
    new Gauge({
      name: 'fleetlink_devices_online',
      help: 'Devices online, by the message server they are assigned to',
      labelNames: ['server'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const { serverId, online } of await readOrNone(() => metrics.sources?.servers.onlineDevicesByServer())) this.set({ server: serverId }, online);
      },
    });
    new Gauge({
      name: 'fleetlink_server_up',
      help: "1 when a server is reachable: a message server this console is connected to, a tunnel proxy that called in the last 30 s",
      labelNames: ['server', 'type'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        const sources = metrics.sources;
        if (!sources) return;
        const now = Date.now();
        for (const s of await readOrNone(() => sources.servers.liveness())) {
          const up = s.type === 'MESSAGE' ? sources.hub.isConnected(s.id) === true : proxyCalling(s.heardAt, now);
          this.set({ server: s.id, type: s.type }, up ? 1 : 0);
        }
      },
    });
    new Counter({
      name: 'fleetlink_mqtt_messages_handled_total',
      help: 'Device messages (state, heartbeats, properties, load samples) this console handled',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(metrics.sources?.hub.telemetryCounts().handled ?? 0);
      },
    });
    new Counter({
      name: 'fleetlink_mqtt_messages_dropped_total',
      help: 'Device messages this console dropped, by why (not JSON, not valid, not handled)',
      labelNames: ['reason'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [reason, n] of Object.entries(metrics.sources?.hub.telemetryCounts().droppedBy ?? {})) this.inc({ reason }, n);
      },
    });
    new Counter({
      name: 'fleetlink_mqtt_sessions_total',
      help: 'Sessions this console began with each message server: its first connect and each reconnect (each is given every retained device state again)',
      labelNames: ['server'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [server, n] of metrics.sources?.hub.sessionCounts() ?? []) this.inc({ server }, n);
      },
    });
    new Gauge({
      name: 'fleetlink_mqtt_backlog',
      help: 'Device messages read and not yet handled: at MQTT_MAX_BACKLOG the console reads no more until half are done',
      registers: [this.registry],
      collect() {
        this.set(metrics.sources?.hub.telemetryCounts().backlog ?? 0);
      },
    });
    new Gauge({
      name: 'fleetlink_db_pool_connections',
      help: "PostgreSQL's pools, the API's and device traffic's: connections open, idle, and queries waiting for one (absent on PGlite)",
      labelNames: ['pool', 'state'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [name, pool] of Object.entries(metrics.sources?.database.pools ?? {})) {
          this.set({ pool: name, state: 'total' }, pool.totalCount);
          this.set({ pool: name, state: 'idle' }, pool.idleCount);
          this.set({ pool: name, state: 'waiting' }, pool.waitingCount);
        }
      },
    });
  }

  /** The console's parts are up: the gauges read them from now on. */
  watch(sources: MetricSources): void {
    this.sources = sources;
  }

  httpAnswered(route: string, method: string, status: number, seconds: number): void {
    const labels = { route, method, status: String(status) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  enrollmentRefused(status: number): void {
    this.enrollmentRefusals.inc({ status: String(status) });
  }

  /** The exposition text; a gauge whose source fails (the database away) is empty, the rest answered. */
  async text(): Promise<string> {
    return this.registry.metrics();
  }
}
