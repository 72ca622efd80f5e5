import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client.js';
import { SecretBox } from '../../lib/secret-box.js';
import { deviceMetrics, deviceOnlinePeriods, devices, deviceServers, servers } from '../../db/schema/index.js';
import type { MessageHub } from '../broker/message-hub.js';
import { createDevice, deviceRow, waitFor } from '../broker/broker.test-support.js';
import { DevicesRepository } from '../devices/devices.repository.js';
import { ServersRepository } from '../servers/servers.repository.js';
import { TelemetryRepository } from './telemetry.repository.js';
import { TelemetryService, type TelemetryOptions } from './telemetry.service.js';
import { InstallationKeys } from '../enrollment/installation-keys.js';
import { createTestDatabase } from '../../testing/test-console.js';

/** Counts the statements that claim pings. */
class CountingClaims extends TelemetryRepository {
  statements = 0;
  override claimPings(claims: Parameters<TelemetryRepository['claimPings']>[0]) {
    this.statements++;
    return super.claimPings(claims);
  }
}

/**
 * Heartbeats, load samples and online states are written in batches; the batching must not change
 * what they mean. On PostgreSQL when TEST_DATABASE_URL is set (as CI runs it), else on PGlite.
 */
describe('telemetry batching', () => {
  let database: Database;
  let postgres: Awaited<ReturnType<typeof createTestDatabase>>;
  let dir: string;
  let svc: TelemetryService;
  const hub = { connection: () => undefined, ping: async () => 7 } as unknown as MessageHub;
  const warnings: { fields: Record<string, unknown>; msg: string }[] = [];
  /** Devices the service did what comes with coming online for (monitors sent, permanent tunnels opened). */
  const onlineCalls: string[] = [];
  const log = { info() {}, warn: (fields: Record<string, unknown>, msg: string) => void warnings.push({ fields, msg }), debug() {} };
  /** A device registered a day ago, so that the samples of the last hours are its own. */
  const registeredDevice = () => createDevice(database.db, 'test device', new Date(Date.now() - 24 * 3600_000));

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'fleetlink-telemetry-'));
    postgres = await createTestDatabase('fleetlink_telemetry');
    database = await openDatabase({ dataDir: dir, databaseUrl: postgres?.url });
    svc = consoleWith(hub, { onOnline: (ids) => void onlineCalls.push(...ids) });
  });

  /** A telemetry service as a console runs one, on the suite's database, with `hub` its message hub. */
  const consoleWith = (messageHub: MessageHub, more: Partial<TelemetryOptions> = {}) =>
    new TelemetryService({
      repo: new TelemetryRepository(database.db),
      devices: new DevicesRepository(database.db, new InstallationKeys(new SecretBox(randomBytes(32)))),
      // Only which server a device is on is read here, never a password.
      servers: new ServersRepository(database.db, new SecretBox(randomBytes(32))),
      hub: messageHub,
      locks: database.locks,
      log,
      heartbeatSeconds: 30,
      pingSeconds: 300,
      flushMs: 60_000, // flushed by hand below
      ...more,
    });

  afterAll(async () => {
    await svc?.stop();
    await database?.close();
    await postgres?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const periods = async (id: string) => (await database.db.select().from(deviceOnlinePeriods)).filter((p) => p.deviceId === id);
  const samples = async (id: string) => database.db.select().from(deviceMetrics).where(eq(deviceMetrics.deviceId, id));
  const beat = (id: string) => svc.handle('s', id, { kind: 'heartbeat', payload: { time: new Date().toISOString() } });
  const sample = (id: string, load: number, time = new Date()) => svc.handle('s', id, { kind: 'metrics', payload: { time: time.toISOString(), systemLoad: load } });

  it('writes many heartbeats and samples in one flush; a heartbeat brings an offline device online', async () => {
    const a = await registeredDevice();
    const b = await registeredDevice();
    await svc.handle('s', a.id, { kind: 'state', payload: { online: true } });
    expect((await deviceRow(database.db, a.id)).online).toBe(true);
    const t = new Date(Date.now() - 1000);
    await beat(a.id);
    await beat(b.id);
    await sample(a.id, 0.25, t);
    await sample(b.id, 0.5, t);
    await sample(b.id, 0.5, t); // a duplicate is dropped, not an error
    // A sample of a device that does not exist is dropped without losing the others.
    await sample('00000000-0000-4000-8000-000000000000', 0.9);
    // Nothing written before the flush.
    expect(await samples(a.id)).toHaveLength(0);
    expect((await deviceRow(database.db, b.id)).online).toBe(false);
    await svc.flush();
    expect((await samples(a.id)).map((s) => s.systemLoad)).toEqual([0.25]);
    expect((await samples(b.id)).map((s) => s.systemLoad)).toEqual([0.5]);
    const rowB = await deviceRow(database.db, b.id);
    expect(rowB.online).toBe(true);
    expect(rowB.lastResponse).not.toBeNull();
    expect(await periods(b.id)).toHaveLength(1);
    expect(await periods(a.id)).toHaveLength(1);
  });

  it("applies one device's states in the order of their connections, however late each arrives", async () => {
    const d = await createDevice(database.db);
    const state = (online: boolean, session?: number) => svc.handle('s', d.id, { kind: 'state', payload: { online, session } });
    const online = async () => (await deviceRow(database.db, d.id)).online;
    await state(true, 200);
    expect(await online()).toBe(true);
    // The same state again (a broker replaying its retained state to a console that subscribes anew): believed.
    const onlineBefore = onlineCalls.length;
    await state(true, 200);
    expect(onlineCalls.length).toBe(onlineBefore + 1);
    // The last will of an earlier connection, handled late (by another console): not believed.
    await state(false, 100);
    expect(await online()).toBe(true);
    await state(false, 200);
    expect(await online()).toBe(false);
    // The same connection's online state, handled after its end: not believed either.
    await state(true, 200);
    expect(await online()).toBe(false);
    // A connection's start and end handled at the same moment end offline, whichever is written first.
    await Promise.all([state(false, 300), state(true, 300)]);
    expect(await online()).toBe(false);
    expect((await periods(d.id)).filter((p) => p.end === null)).toHaveLength(0);
    // An agent that sends no session (older than issue 60) is believed, as before.
    await state(true);
    expect(await online()).toBe(true);
    expect((await periods(d.id)).filter((p) => p.end === null)).toHaveLength(1);
  });

  it('writes many devices coming online together, each as it would be alone', async () => {
    const pings: string[] = [];
    const batches: string[][] = [];
    const misplaced: string[] = [];
    const c = consoleWith({ connection: () => undefined, ping: async (id: string) => (pings.push(id), 9) } as unknown as MessageHub, {
      onOnline: (ids) => void batches.push(ids),
      onMisplaced: async (id) => void misplaced.push(id),
    });
    const fleet = await Promise.all(Array.from({ length: 40 }, () => createDevice(database.db)));
    const [already, stale] = [fleet[0]!, fleet[1]!];
    await c.handle('s', already.id, { kind: 'state', payload: { online: true, session: 100 } });
    await c.handle('s', stale.id, { kind: 'state', payload: { online: false, session: 500 } });
    batches.length = 0;
    pings.length = 0;
    // Forty at once, as a fleet reconnecting sends them; one of them newer than its device's last will.
    await Promise.all(fleet.map((d) => c.handle('s', d.id, { kind: 'state', payload: { online: true, session: 200 } })));
    expect(batches).toHaveLength(1);
    expect(batches[0]!.sort()).toEqual(fleet.filter((d) => d !== stale).map((d) => d.id).sort());
    for (const d of fleet) {
      expect((await deviceRow(database.db, d.id)).online).toBe(d !== stale);
      // One open period each: the one already online keeps its own.
      expect((await periods(d.id)).filter((p) => p.end === null)).toHaveLength(d === stale ? 0 : 1);
    }
    // Pinged: each that came online (its ping claimed by the same statement), not the one already online (pinged before).
    await waitFor(() => pings.length === 38, 5000, 'the pings');
    expect(pings).not.toContain(already.id);
    await c.flush();
    expect((await deviceRow(database.db, fleet[2]!.id)).latency).toBe(9);
    expect(misplaced).toEqual([]);
    await c.stop();
  });

  it('two consoles handed the same devices coming online at once, in opposite orders: each comes online once', async () => {
    const fleet = await Promise.all(Array.from({ length: 60 }, () => createDevice(database.db)));
    const [a, b] = [consoleWith(hub), consoleWith(hub)];
    warnings.length = 0;
    // Both handed every state (a Mosquitto restarted, each console given the retained ones), in opposite orders.
    const handedTo = (c: TelemetryService, devices: typeof fleet) =>
      devices.map((d) => c.handle('s', d.id, { kind: 'state', payload: { online: true, session: 300 } }));
    for (let round = 0; round < 3; round++) await Promise.all([...handedTo(a, fleet), ...handedTo(b, [...fleet].reverse())]);
    expect(warnings.map((w) => w.msg)).toEqual([]);
    for (const d of fleet) expect(await periods(d.id)).toHaveLength(1);
    await Promise.all([a.stop(), b.stop()]);
  });

  it("believes a last will only from the device's own server, and sends a device that came online elsewhere back", async () => {
    const misplaced: string[] = [];
    const c = consoleWith(hub, { onMisplaced: async (id, serverId) => void misplaced.push(`${id}@${serverId}`) });
    const [own, old] = await database.db
      .insert(servers)
      .values([{ type: 'MESSAGE', url: 'mqtt://own.example' }, { type: 'MESSAGE', url: 'mqtt://old.example' }])
      .returning({ id: servers.id });
    const d = await createDevice(database.db);
    await database.db.insert(deviceServers).values({ deviceId: d.id, serverId: own!.id });
    await c.handle(own!.id, d.id, { kind: 'state', payload: { online: true, session: 10 } });
    // The old server's will, after the device moved: not believed.
    await c.handle(old!.id, d.id, { kind: 'state', payload: { online: false, session: 10 } });
    expect((await deviceRow(database.db, d.id)).online).toBe(true);
    await c.handle(own!.id, d.id, { kind: 'state', payload: { online: false, session: 10 } });
    expect((await deviceRow(database.db, d.id)).online).toBe(false);
    // Back on the old server (it missed its move): online, and redirected.
    await c.handle(old!.id, d.id, { kind: 'state', payload: { online: true, session: 20 } });
    expect((await deviceRow(database.db, d.id)).online).toBe(true);
    expect(misplaced).toEqual([`${d.id}@${old!.id}`]);
    await c.stop();
  });

  it("leaves a device's row alone when its agent reports the same again (each connect), and writes a change", async () => {
    const d = await createDevice(database.db);
    const report = (hostname: string) =>
      svc.handle('s', d.id, { kind: 'properties', payload: { properties: { hostname }, addresses: [{ type: 'LOCAL', ip: '10.0.0.1' }], drives: [] } });
    const version = async () => (await database.db.execute<{ v: string }>(sql`select xmin::text as v from devices where id = ${d.id}`)).rows[0]!.v;
    await report('kiosk-1');
    const first = await version();
    await report('kiosk-1');
    expect(await version()).toBe(first);
    await report('kiosk-2');
    expect(await version()).not.toBe(first);
    expect((await deviceRow(database.db, d.id)).properties).toEqual({ hostname: 'kiosk-2' });
  });

  it("writes many devices' reports in one statement, the later of one device's two, and a bad one costs only its own message", async () => {
    const statements: number[] = [];
    const reports = new (class extends DevicesRepository {
      override updateReported(batch: Parameters<DevicesRepository['updateReported']>[0]) {
        statements.push(batch.length);
        return super.updateReported(batch);
      }
    })(database.db, new InstallationKeys(new SecretBox(randomBytes(32))));
    const changes: string[] = [];
    const live = { device: (id: string, part: string) => void (part === 'reported' && changes.push(id)) } as unknown as TelemetryOptions['live'];
    const c = consoleWith(hub, { devices: reports, live });
    const fleet = await Promise.all(Array.from({ length: 30 }, () => createDevice(database.db)));
    const report = (id: string, hostname: string) =>
      c.handle('s', id, { kind: 'properties', payload: { properties: { hostname, quote: `"\\'{}` }, addresses: [{ type: 'LOCAL', ip: '10.0.0.2' }], drives: [] } });
    const first = fleet[0]!.id;
    const hosts = async () => {
      const rows = await database.db.select({ id: devices.id, properties: devices.properties, addresses: devices.addresses }).from(devices).where(inArray(devices.id, fleet.map((d) => d.id)));
      expect(rows.every((r) => r.addresses[0]?.ip === '10.0.0.2' && r.properties!.quote === `"\\'{}`)).toBe(true);
      return new Map(rows.map((r) => [r.id, r.properties!.hostname]));
    };
    await Promise.all([...fleet.map((d, i) => report(d.id, `host-${i}`)), report(first, 'host-later')]);
    expect(statements).toEqual([31]);
    const written = await hosts();
    expect(written.get(first)).toBe('host-later');
    fleet.slice(1).forEach((d, i) => expect(written.get(d.id)).toBe(`host-${i + 1}`));
    expect([...new Set(changes)].sort()).toEqual(fleet.map((d) => d.id).sort());

    // The same reports again, at once: no row is written, no page told, still one statement.
    statements.length = 0;
    changes.length = 0;
    await Promise.all(fleet.slice(1).map((d, i) => report(d.id, `host-${i + 1}`)));
    expect(statements).toEqual([29]);
    expect(changes).toEqual([]);

    // PostgreSQL's jsonb takes no NUL character: that report alone is refused; the batch's
    // statement fails for it, and each report is then written on its own.
    statements.length = 0;
    const handled = await Promise.allSettled([report(first, 'host-again'), report(fleet[1]!.id, 'bad\u0000'), report(fleet[2]!.id, 'host-new')]);
    expect(handled.map((h) => h.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(statements).toEqual([3, 1, 1, 1]);
    const after = await hosts();
    expect([after.get(first), after.get(fleet[1]!.id), after.get(fleet[2]!.id)]).toEqual(['host-again', 'host-1', 'host-new']);
    await c.stop();
  });

  it('the silence sweep takes offline, together, the devices not heard from for three heartbeats', async () => {
    const [quiet, alsoQuiet, talking] = await Promise.all([1, 2, 3].map(() => createDevice(database.db)));
    const long = new Date(Date.now() - 10 * 60_000);
    for (const d of [quiet!, alsoQuiet!]) await svc.handle('s', d.id, { kind: 'state', payload: { online: true, session: 10 } });
    await database.db.update(devices).set({ lastResponse: long }).where(inArray(devices.id, [quiet!.id, alsoQuiet!.id]));
    await svc.handle('s', talking!.id, { kind: 'state', payload: { online: true, session: 10 } });
    expect((await svc.sweep()).sort()).toEqual([quiet!.id, alsoQuiet!.id].sort());
    for (const d of [quiet!, alsoQuiet!]) {
      expect((await deviceRow(database.db, d.id)).online).toBe(false);
      expect((await periods(d.id)).every((p) => p.end !== null)).toBe(true);
    }
    expect((await deviceRow(database.db, talking!.id)).online).toBe(true);
    expect((await periods(talking!.id))[0]!.end).toBeNull();
  });

  it('puts the silence sweep off while the console is behind with device messages, for five minutes at most', async () => {
    let behind = true;
    const c = consoleWith(hub, { behind: () => behind });
    const d = await createDevice(database.db);
    await c.handle('s', d.id, { kind: 'state', payload: { online: true, session: 10 } });
    await database.db.update(devices).set({ lastResponse: new Date(Date.now() - 10 * 60_000) }).where(eq(devices.id, d.id));
    const now = Date.now();
    expect(await c.sweepUnlessBehind(new Date(now))).toBeUndefined();
    expect(await c.sweepUnlessBehind(new Date(now + 4 * 60_000))).toBeUndefined();
    expect((await deviceRow(database.db, d.id)).online).toBe(true);
    // Behind for five minutes: it sweeps all the same.
    expect(await c.sweepUnlessBehind(new Date(now + 5 * 60_000))).toContain(d.id);
    // Caught up: it sweeps at once.
    await c.handle('s', d.id, { kind: 'state', payload: { online: true, session: 11 } });
    await database.db.update(devices).set({ lastResponse: new Date(Date.now() - 10 * 60_000) }).where(eq(devices.id, d.id));
    behind = false;
    expect(await c.sweepUnlessBehind()).toContain(d.id);
    await c.stop();
  });

  it('pings a device once between two consoles that share its heartbeats', async () => {
    const d = await createDevice(database.db);
    const pings: string[] = [];
    const consoleNamed = (name: string) => consoleWith({ connection: () => undefined, ping: async () => (pings.push(name), 7) } as unknown as MessageHub);
    const [a, b] = [consoleNamed('A'), consoleNamed('B')];
    // A applies its coming online, and pings it at once; B, handed the next heartbeats, finds it pinged.
    await a.handle('s', d.id, { kind: 'state', payload: { online: true } });
    await waitFor(() => pings.length === 1, 5000, 'the first ping');
    for (let i = 0; i < 3; i++) await b.handle('s', d.id, { kind: 'heartbeat', payload: { time: new Date().toISOString() } });
    await new Promise((r) => setTimeout(r, 200));
    expect(pings).toEqual(['A']);
    await a.flush(); // the latency is written with A's next heartbeats
    expect((await deviceRow(database.db, d.id)).latency).toBe(7);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('claims the pings of many devices together, each once between two consoles', async () => {
    // Two consoles just started (they have pinged nobody) are handed the heartbeats of 40 online
    // devices, one pinged a minute ago: each other device is pinged once, by one of them.
    const fleet = await Promise.all(Array.from({ length: 40 }, () => createDevice(database.db)));
    await database.db.update(devices).set({ online: true }).where(inArray(devices.id, fleet.map((d) => d.id)));
    await database.db.update(devices).set({ pingedAt: sql`now() - interval '1 minute'` }).where(eq(devices.id, fleet[0]!.id));
    const pings: string[] = [];
    const repo = new CountingClaims(database.db);
    const consoleNamed = (name: string) =>
      consoleWith({ connection: () => undefined, ping: async (id: string) => (pings.push(`${name} ${id}`), 7) } as unknown as MessageHub, { repo });
    const [a, b] = [consoleNamed('A'), consoleNamed('B')];
    const heartbeat = { kind: 'heartbeat' as const, payload: { time: new Date().toISOString() } };
    await Promise.all(fleet.flatMap((d) => [a.handle('s', d.id, heartbeat), b.handle('s', d.id, heartbeat)]));
    await waitFor(() => pings.length >= fleet.length - 1, 5000, 'the pings');
    await new Promise((r) => setTimeout(r, 200));
    const pinged = pings.map((p) => p.split(' ')[1]);
    expect(new Set(pinged).size).toBe(pinged.length);
    expect(pinged.sort()).toEqual(fleet.slice(1).map((d) => d.id).sort());
    // A statement per console and batch, not one per heartbeat.
    expect(repo.statements).toBeGreaterThanOrEqual(1);
    expect(repo.statements).toBeLessThanOrEqual(4);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('brings many devices swept offline back with their heartbeats in one go, but not one that went offline after its heartbeat', async () => {
    const calls: number[] = [];
    const repo = new (class extends TelemetryRepository {
      override setOnlineByHeartbeats(beats: Map<string, Date>) {
        calls.push(beats.size);
        return super.setOnlineByHeartbeats(beats);
      }
    })(database.db);
    const cameOnline: string[] = [];
    const c = consoleWith(hub, { repo, onOnline: (ids) => void cameOnline.push(...ids) });
    const fleet = await Promise.all(Array.from({ length: 40 }, () => createDevice(database.db)));
    for (const d of fleet) await c.handle('s', d.id, { kind: 'state', payload: { online: true, session: 1 } });
    // Silent for long: swept offline, as during a slow reconnect storm.
    await database.db.update(devices).set({ lastResponse: new Date(Date.now() - 10 * 60_000) }).where(inArray(devices.id, fleet.map((d) => d.id)));
    expect((await c.sweep()).length).toBeGreaterThanOrEqual(40);
    cameOnline.length = 0;
    for (const d of fleet) await c.handle('s', d.id, { kind: 'heartbeat', payload: { time: new Date().toISOString() } });
    // The last one's online period ended after its heartbeat arrived (another console's will): older news.
    const late = fleet.at(-1)!.id;
    await database.db.update(deviceOnlinePeriods).set({ end: new Date(Date.now() + 1000) }).where(eq(deviceOnlinePeriods.deviceId, late));
    await c.flush();
    expect(calls).toEqual([40]);
    const back = fleet.slice(0, -1).map((d) => d.id);
    expect(cameOnline.sort()).toEqual([...back].sort());
    const rows = await database.db.select({ id: devices.id, online: devices.online }).from(devices).where(inArray(devices.id, fleet.map((d) => d.id)));
    expect(rows.filter((r) => r.online).map((r) => r.id).sort()).toEqual([...back].sort());
    // The swept period ended, a new one open (in no particular order: PostgreSQL moves an updated row).
    for (const id of back) expect((await periods(id)).map((p) => p.end === null).sort()).toEqual([false, true]);
    expect((await periods(late)).every((p) => p.end !== null)).toBe(true);
    await c.stop();
  });

  it('a last will after a heartbeat that is still waiting leaves the device offline', async () => {
    const c = await createDevice(database.db);
    await svc.handle('s', c.id, { kind: 'state', payload: { online: true } });
    await beat(c.id);
    await svc.handle('s', c.id, { kind: 'state', payload: { online: false } });
    await svc.flush();
    expect((await deviceRow(database.db, c.id)).online).toBe(false);
    const p = await periods(c.id);
    expect(p).toHaveLength(1);
    expect(p[0]!.end).not.toBeNull();
  });

  it("a heartbeat waiting at one console does not bring back a device another console saw go offline since", async () => {
    const d = await createDevice(database.db);
    const [a, b] = [consoleWith(hub), consoleWith(hub)];
    await a.handle('s', d.id, { kind: 'state', payload: { online: true } });
    // B is handed a heartbeat and holds it for its next flush; A then gets the agent's last will.
    await b.handle('s', d.id, { kind: 'heartbeat', payload: { time: new Date().toISOString() } });
    await new Promise((r) => setTimeout(r, 5));
    await a.handle('s', d.id, { kind: 'state', payload: { online: false } });
    await b.flush();
    expect((await deviceRow(database.db, d.id)).online).toBe(false);
    // A heartbeat that arrives after it went offline still brings it back (its state message was lost).
    await b.handle('s', d.id, { kind: 'heartbeat', payload: { time: new Date().toISOString() } });
    await b.flush();
    expect((await deviceRow(database.db, d.id)).online).toBe(true);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('drops, and logs, a sample dated more than five minutes ahead or before its device was registered', async () => {
    const d = await registeredDevice();
    warnings.length = 0;
    await sample(d.id, 0.9, new Date('9999-12-31T23:59:59Z'));
    await sample(d.id, 0.8, new Date(Date.now() + 6 * 60_000));
    await sample(d.id, 0.7, new Date(Date.now() - 25 * 3600_000));
    await sample(d.id, 0.3, new Date(Date.now() + 4 * 60_000));
    await sample(d.id, 0.2, new Date(Date.now() - 23 * 3600_000));
    await svc.flush();
    expect((await samples(d.id)).map((s) => s.systemLoad).sort()).toEqual([0.2, 0.3]);
    expect(warnings.map((w) => w.msg)).toEqual([
      'load sample dropped: dated in the future',
      'load sample dropped: dated in the future',
      'load sample dropped: dated before the device was registered',
    ]);
    expect(warnings[0]!.fields).toMatchObject({ deviceId: d.id, time: '9999-12-31T23:59:59.000Z' });
  });

  it('flushes by itself past the batch size and on stop', async () => {
    const d = await registeredDevice();
    const base = Date.now() - 3600_000;
    for (let i = 0; i < 1000; i++) await sample(d.id, 0.1, new Date(base + i * 1000));
    await new Promise((r) => setTimeout(r, 200));
    await svc.flush(); // waits for the one in flight
    expect(await samples(d.id)).toHaveLength(1000);
    await sample(d.id, 0.2);
    await svc.stop();
    expect(await samples(d.id)).toHaveLength(1001);
  });
});
