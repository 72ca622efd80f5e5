import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from '../../env.js';
import { freePort } from '../../testing/test-console.js';
import { sample, scrape as scrapeMetrics } from './prometheus.test-support.js';
import { embeddedSetup, memberDevice, onlineMemberDevice, tearDown, type AgentProcess, type MessagingSetup } from '../broker/broker.test-support.js';

const TOKEN = 'metrics-token-for-the-test';

/**
 * Issue 67: the console's Prometheus metrics on a listener of its own (with METRICS_TOKEN), its
 * readiness for a load balancer, and enrollments asked to wait past ENROLL_CONCURRENCY, on a real
 * console with the built-in broker and proxy and a real agent.
 */
describe('console metrics and readiness', () => {
  let s: MessagingSetup;
  const cleanup = { agents: [] as AgentProcess[], dirs: [] as string[] };
  let admin: string;
  let metricsUrl: string;

  beforeAll(async () => {
    s = await embeddedSetup({
      ...{ METRICS_PORT: String(await freePort()), METRICS_TOKEN: TOKEN, ENROLL_CONCURRENCY: '1', ENROLL_RATE_LIMIT: '1000' },
      ...{ TUNNEL_SSH_PORT: String(await freePort()), TUNNEL_HTTP_PORT: String(await freePort()) },
    });
    ({ admin } = await onlineMemberDevice(s, 'measured', cleanup));
    metricsUrl = `http://127.0.0.1:${s.tc.metricsListener!.address.port}/metrics`;
  }, 60_000);
  afterAll(async () => tearDown(s, cleanup));

  const scrape = () => scrapeMetrics(metricsUrl, TOKEN);

  it('answers only with the token, only at /metrics, and never on the public port', async () => {
    expect((await fetch(metricsUrl)).status).toBe(401);
    expect((await fetch(metricsUrl, { headers: { authorization: 'Bearer not-the-token-at-all' } })).status).toBe(401);
    expect((await fetch(metricsUrl.replace('/metrics', '/'), { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    expect((await s.tc.api('/metrics')).status).toBe(404);
  });

  it('counts requests by route and status, devices online, servers up, messages, the event loop', async () => {
    for (let i = 0; i < 3; i++) expect((await s.tc.api('/api/devices', { token: admin })).status).toBe(200);
    const text = await scrape();
    expect(sample(text, 'fleetlink_http_requests_total', { route: '/api/devices', method: 'GET', status: '200' })).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'fleetlink_http_request_duration_seconds_count', { route: '/api/devices', method: 'GET', status: '200' })).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'fleetlink_devices_online', { server: s.serverId })).toBe(1);
    expect(sample(text, 'fleetlink_server_up', { server: s.serverId, type: 'MESSAGE' })).toBe(1);
    expect(sample(text, 'fleetlink_server_up', { server: s.tc.proxy!.serverId, type: 'PROXY' })).toBe(1);
    expect(sample(text, 'fleetlink_mqtt_messages_handled_total')).toBeGreaterThan(0);
    expect(sample(text, 'fleetlink_mqtt_messages_dropped_total', { reason: 'not valid' })).toBe(0);
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'fleetlink_mqtt_backlog')).toBeGreaterThanOrEqual(0);
    // One session with the built-in broker: it never dropped the console.
    expect(sample(text, 'fleetlink_mqtt_sessions_total', { server: s.serverId })).toBe(1);
    if (s.tc.database.kind === 'postgres') {
      // Two pools: the API's served the requests above, device traffic the agent's messages.
      expect(sample(text, 'fleetlink_db_pool_connections', { pool: 'api', state: 'total' })).toBeGreaterThan(0);
      expect(sample(text, 'fleetlink_db_pool_connections', { pool: 'traffic', state: 'total' })).toBeGreaterThan(0);
    }
    // A URL's ids never make series of their own.
    expect(text).not.toMatch(/route="\/api\/device\/[0-9a-f]{8}-/);
  });

  it('asks enrollments past ENROLL_CONCURRENCY to wait, with a Retry-After, and counts the refusals', async () => {
    const device = await memberDevice(s.tc.database.db, 'crowd');
    const enroll = () => s.tc.api('/api/agent/enroll', { method: 'POST', json: { deviceId: device.id, key: 'not-the-key-of-this-device' } });
    // The first one is held inside the console (the test holds its device's lock), so it is in
    // flight while the others come: ENROLL_CONCURRENCY is 1 here. The others are sent only once the
    // first asks for the lock: sent earlier, one of them could overtake it (each request reads the
    // rate limit's store first) and be the one held.
    const locks = s.tc.database.locks;
    const withLock = locks.withLock.bind(locks);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const holding = new Promise<void>((r) => (locked = r));
    const lock = withLock(`device:${device.id}`, async () => {
      locked();
      await held;
    });
    await holding;
    let asked!: () => void;
    const waiting = new Promise<void>((r) => (asked = r));
    locks.withLock = (name, work, waitMs) => {
      if (name === `device:${device.id}`) asked();
      return withLock(name, work, waitMs);
    };
    const first = enroll();
    await waiting;
    locks.withLock = withLock;
    const busy = await Promise.all(Array.from({ length: 5 }, enroll));
    release();
    await lock;
    expect((await first).status).toBe(403);
    for (const r of busy) {
      expect(r.status).toBe(429);
      const seconds = Number(r.headers.get('retry-after'));
      expect(seconds).toBeGreaterThanOrEqual(5);
      expect(seconds).toBeLessThanOrEqual(30);
      expect(((await r.json()) as { message: string }).message).toBe(`The console is enrolling many devices at once: try again in ${seconds} seconds.`);
    }
    // Its turn come, an enrollment is worked on again (and refused for its key).
    expect((await enroll()).status).toBe(403);
    const text = await scrape();
    expect(sample(text, 'fleetlink_enrollment_refusals_total', { status: '429' })).toBe(5);
    expect(sample(text, 'fleetlink_enrollment_refusals_total', { status: '403' })).toBe(2);
  });

  it('says it is ready while the database and a message server answer, and not once the broker is gone', async () => {
    const ready = await s.tc.api('/api/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', messageServers: { connected: 1, total: 1 } });
    await s.tc.messaging!.broker!.stop();
    let last: Response | undefined;
    for (let i = 0; i < 50 && (last = await s.tc.api('/api/ready')).status !== 503; i++) await new Promise((r) => setTimeout(r, 100));
    expect(last!.status).toBe(503);
    expect(await last!.json()).toEqual({ code: 'UNAVAILABLE', message: 'Not ready: this console is not connected to its message server.' });
  });
});

describe('METRICS_* configuration', () => {
  it('refuses metrics open on every interface without a token', () => {
    expect(() => parseEnv({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' })).toThrow(
      new ConfigError(
        'Invalid configuration: METRICS_TOKEN: METRICS_TOKEN must be set when METRICS_HOST is not a loopback address: the metrics would be open to anyone who can reach it',
      ),
    );
    expect(parseEnv({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: 'x'.repeat(16) }).METRICS_HOST).toBe('0.0.0.0');
    expect(parseEnv({ METRICS_PORT: '9464' }).METRICS_HOST).toBe('127.0.0.1');
  });
});
