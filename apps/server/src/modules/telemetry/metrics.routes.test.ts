import { rmSync } from 'node:fs';
import { metricsResponseSchema, timelineResponseSchema } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceMetrics, deviceOnlinePeriods, organizationMembers } from '../../db/schema/index.js';
import type { TestConsole } from '../../testing/test-console.js';
import { createDevice, startAgentTestConsole, spawnAgent, tempDir, waitFor, type AgentProcess } from '../broker/broker.test-support.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/**
 * GET /api/device/{id}/metrics and /metrics/TIMELINE?interval=DAY|WEEK for a member of the
 * device's organization: samples from a real agent, online periods, window clipping, refusals.
 */
describe('device metrics and timeline API', () => {
  let tc: TestConsole;
  let member: string;
  let outsider: string;
  let agent: AgentProcess | undefined;
  const dirs: string[] = [];

  beforeAll(async () => {
    tc = await startAgentTestConsole({ ENROLL_RATE_LIMIT: '50' });
    [member, outsider] = await Promise.all([tc.token('user@fleetlink.local'), tc.token('admin@fleetlink.local')]);
  });

  afterAll(async () => {
    await agent?.kill();
    await tc?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** A device in a fresh organization where user@fleetlink.local is a plain USER member. */
  async function memberDevice() {
    const dev = await createDevice(tc.database.db);
    await tc.database.db.insert(organizationMembers).values({ organizationId: dev.organizationId, email: 'user@fleetlink.local', role: 'USER' });
    return dev;
  }

  const get = (path: string, token?: string) => tc.api(path, token ? { token } : {});

  it('serves the load samples and online periods a real agent produces', async () => {
    const dev = await memberDevice();
    const dataDir = tempDir('fleetlink-agent-');
    dirs.push(dataDir);
    const before = Date.now();
    agent = spawnAgent({ server: tc.url, device: dev.id, key: dev.key, dataDir });

    const samples = await waitFor(async () => {
      const res = await get(`/api/device/${dev.id}/metrics`, member);
      expect(res.status).toBe(200);
      const body = metricsResponseSchema.parse(await res.json());
      return body.length >= 2 ? body : undefined;
    }, 15_000, 'two load samples from the agent');
    for (const s of samples) {
      expect(s.systemLoad).toBeGreaterThanOrEqual(0);
      expect(s.systemLoad).toBeLessThanOrEqual(1);
      expect(Date.parse(s.time)).toBeGreaterThanOrEqual(before - 5000);
    }
    // Oldest first.
    const times = samples.map((s) => Date.parse(s.time));
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    // Online now: one open period.
    const open = timelineResponseSchema.parse(await (await get(`/api/device/${dev.id}/metrics/TIMELINE?interval=WEEK`, member)).json());
    expect(open).toHaveLength(1);
    expect(open[0]!.end).toBeNull();
    expect(Date.parse(open[0]!.start)).toBeGreaterThanOrEqual(before - 5000);

    // Killed: the period closes (last will); restarted: a second, open one.
    await agent.kill('SIGKILL');
    const closed = await waitFor(async () => {
      const body = timelineResponseSchema.parse(await (await get(`/api/device/${dev.id}/metrics/TIMELINE?interval=DAY`, member)).json());
      return body.length === 1 && body[0]!.end !== null ? body : undefined;
    }, 10_000, 'the online period to close');
    expect(Date.parse(closed[0]!.end!)).toBeGreaterThanOrEqual(Date.parse(closed[0]!.start));

    agent = spawnAgent({ server: tc.url, device: dev.id, dataDir });
    const two = await waitFor(async () => {
      const body = timelineResponseSchema.parse(await (await get(`/api/device/${dev.id}/metrics/TIMELINE`, member)).json());
      return body.length === 2 ? body : undefined;
    }, 15_000, 'a second online period');
    expect(two[0]!.end).not.toBeNull();
    expect(two[1]!.end).toBeNull();
    expect(Date.parse(two[1]!.start)).toBeGreaterThanOrEqual(Date.parse(two[0]!.end!));
    await agent.kill('SIGKILL');
    agent = undefined;
  }, 60_000);

  it('keeps to the window: samples of the last 24 h by default, DAY = 24 h and WEEK = 8 days of periods, clipped', async () => {
    const dev = await memberDevice();
    const now = Date.now();
    const at = (ms: number) => new Date(now - ms);
    await tc.database.db.insert(deviceMetrics).values([
      { deviceId: dev.id, time: at(30 * HOUR), systemLoad: 0.9 },
      { deviceId: dev.id, time: at(2 * HOUR), systemLoad: 0.25 },
      { deviceId: dev.id, time: at(1 * HOUR), systemLoad: 0.5 },
    ]);
    await tc.database.db.insert(deviceOnlinePeriods).values([
      // Ended before the 8-day window: never shown.
      { deviceId: dev.id, start: at(12 * DAY), end: at(9 * DAY) },
      // Straddles the 8-day window start: clipped to it.
      { deviceId: dev.id, start: at(10 * DAY), end: at(7 * DAY) },
      { deviceId: dev.id, start: at(3 * DAY), end: at(2 * DAY) },
      // Straddles the 24-hour window start.
      { deviceId: dev.id, start: at(30 * HOUR), end: at(20 * HOUR) },
      // Still online.
      { deviceId: dev.id, start: at(1 * HOUR), end: null },
    ]);

    const metrics = metricsResponseSchema.parse(await (await get(`/api/device/${dev.id}/metrics`, member)).json());
    expect(metrics.map((m) => m.systemLoad)).toEqual([0.25, 0.5]);
    // To the millisecond, as stored (issue 69: the times are made in the console from epoch milliseconds).
    expect(metrics.map((m) => m.time)).toEqual([at(2 * HOUR).toISOString(), at(1 * HOUR).toISOString()]);
    const longer = metricsResponseSchema.parse(await (await get(`/api/device/${dev.id}/metrics?hours=48`, member)).json());
    expect(longer.map((m) => m.systemLoad)).toEqual([0.9, 0.25, 0.5]);

    const near = (iso: string, ms: number) => expect(Math.abs(Date.parse(iso) - (now - ms))).toBeLessThan(60_000);

    const week = timelineResponseSchema.parse(await (await get(`/api/device/${dev.id}/metrics/TIMELINE?interval=WEEK`, member)).json());
    expect(week).toHaveLength(4);
    near(week[0]!.start, 8 * DAY); // clipped to the window start
    near(week[0]!.end!, 7 * DAY);
    near(week[1]!.start, 3 * DAY);
    near(week[2]!.start, 30 * HOUR);
    near(week[3]!.start, 1 * HOUR);
    expect(week[3]!.end).toBeNull();

    const day = timelineResponseSchema.parse(await (await get(`/api/device/${dev.id}/metrics/TIMELINE?interval=DAY`, member)).json());
    expect(day).toHaveLength(2);
    near(day[0]!.start, 24 * HOUR);
    near(day[0]!.end!, 20 * HOUR);
    expect(day[1]!.end).toBeNull();
    // DAY is the default interval (SPEC §9).
    const byDefault = timelineResponseSchema.parse(await (await get(`/api/device/${dev.id}/metrics/TIMELINE`, member)).json());
    expect(byDefault.map((p) => p.end)).toEqual(day.map((p) => p.end));
    near(byDefault[0]!.start, 24 * HOUR);
  });

  it('refuses a bad interval or hours with 400 and a clear message', async () => {
    const dev = await memberDevice();
    for (const q of ['interval=MONTH', 'interval=day', 'interval=']) {
      const res = await get(`/api/device/${dev.id}/metrics/TIMELINE?${q}`, member);
      expect(res.status, q).toBe(400);
      const body = await res.json();
      expect(body.message, q).toMatch(/Interval must be DAY or WEEK\./);
      expect(typeof body.code).toBe('string');
    }
    const hours = await get(`/api/device/${dev.id}/metrics?hours=abc`, member);
    expect(hours.status).toBe(400);
    expect((await hours.json()).message).toMatch(/Hours must be a number\./);
    const tooMany = await get(`/api/device/${dev.id}/metrics?hours=500`, member);
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).message).toMatch(/Hours must be less than 193\./);
  });

  it('answers 404 to a non-member (even a realm admin), 403 to a guest without USER, and for an unknown device', async () => {
    const dev = await memberDevice();
    await tc.database.db.insert(deviceMetrics).values({ deviceId: dev.id, time: new Date(), systemLoad: 0.5 });
    const guest = await tc.token('guest@fleetlink.local');
    for (const path of [`/api/device/${dev.id}/metrics`, `/api/device/${dev.id}/metrics/TIMELINE?interval=WEEK`]) {
      const res = await get(path, outsider);
      expect(res.status, path).toBe(404);
      const body = await res.json();
      expect(body.message).toBe('Device not found.');
      expect(JSON.stringify(body)).not.toContain('0.5');
      // The realm role comes first, as on every other device route (a guest got 200 here once).
      const refused = await get(path, guest);
      expect(refused.status, path).toBe(403);
      expect((await refused.json()).message).toBe('You do not have the necessary authorization: role USER is required.');
    }
    const unknown = await get('/api/device/00000000-0000-4000-8000-000000000000/metrics', member);
    expect(unknown.status).toBe(404);
  });

  it('answers 401 without a valid token', async () => {
    const dev = await memberDevice();
    for (const path of [`/api/device/${dev.id}/metrics`, `/api/device/${dev.id}/metrics/TIMELINE?interval=WEEK`]) {
      expect((await get(path)).status, path).toBe(401);
      expect((await get(path, 'not-a-jwt')).status, path).toBe(401);
    }
  });
});
