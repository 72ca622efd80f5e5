/**
 * Fleet benchmark as production runs it (issues 60 and 70), run by bench/fleet-sim.ts when CONSOLES > 1
 * or FLEET_BROKERS is set: CONSOLES console processes (1) on one fresh PostgreSQL database, behind a
 * round-robin balancer at the PUBLIC_URL they share, and FLEET_BROKERS Mosquitto servers (1) with
 * dynamic security, each its own process on a free port, registered through the API with a
 * `maxCapacity` of an even share of the fleet, so the console's least-loaded assignment (SPEC §5)
 * spreads the devices. N devices enroll through the balancer (obeying any Retry-After), simulator
 * processes (fleet-agents.ts, at most 12,000 agents each: a process here may hold 20,000 open files)
 * connect each device to the server its enrollment named, and the consoles share the telemetry
 * through shared subscriptions. A member searches devices every second throughout.
 *
 * Printed every 5 s: the devices online in the console's own view (devices.online), each console's
 * CPU, RSS and the device messages it handled. At the end: the time until the whole fleet was
 * online, each console's CPU and RSS in steady state and at peak, its CPU per device coming online
 * and per message, the search's p50/p95 in each phase; after the simulators said goodbye, that the
 * consoles' shares add up to the telemetry the simulators published and the last wills Mosquitto
 * published for them (bench/fleet-wills.ts): none lost, none handled twice beyond what QoS 1 and
 * retained states allow.
 *
 * FLEET_RESTART=broker: after the steady state, every Mosquitto is restarted with the fleet
 * connected; printed: how long until the whole fleet is online again in the console's view, the
 * fewest online meanwhile, and the slowest answer of /api/health and of a device page meanwhile.
 * FLEET_RESTART=console: the first console is restarted instead (SIGTERM, then started again);
 * printed: how long it was away, how long until its view was whole again, and how many agents lost
 * their connection meanwhile (none should: agents talk to Mosquitto, not to the console).
 * FLEET_RESTART=broker,console: one, then the other, on one enrollment (at 50,000 devices enrolling
 * takes Mosquitto 2.0 most of the run).
 *
 *   FLEET_BROKERS=3 FLEET_N=10000 FLEET_SECONDS=120 TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/fleet-sim.ts
 *   CONSOLES=2 FLEET_N=1000 FLEET_SECONDS=60 TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/fleet-sim.ts
 *
 * Environment as fleet-sim.ts's (FLEET_N, FLEET_SECONDS, FLEET_HEARTBEAT_SECONDS, FLEET_METRICS_SECONDS,
 * FLEET_CONNECT_RATE, FLEET_PROCS, FLEET_ENROLL_CONCURRENCY), with TEST_DATABASE_URL (a fresh database
 * is made there) and Mosquitto installed (MOSQUITTO_BIN, or `mosquitto` on the PATH); BENCH_PROFILE=<dir>
 * writes each console's CPU profile there; FLEET_BROKER_NICE (0) runs the Mosquitto servers at that lower priority.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { consoleInstanceSchema, type ConsoleInstance } from '@fleetlink/contract';
import { mosquittoBin, startMosquitto, tempDir, type MosquittoProcess } from '../apps/server/src/modules/broker/broker.test-support.js';
import { startBalancer } from '../apps/server/src/testing/balancer.test-support.js';
import { startConsoleProcess, type ConsoleProcess } from '../apps/server/src/testing/console-process.test-support.js';
import { createTestDatabase, freePort } from '../apps/server/src/testing/test-console.js';
import type { FleetCounters } from './fleet-agents.js';
import { endOnSignalsAndAfter, enrollAll, everySecond, fleetSettings, log, startSimulators, stopChildren, tokenFor } from './fleet-support.js';
import { watchWills } from './fleet-wills.js';
import { percentile } from './percentile.js';
import { machineSample, procSample, schedSample } from './proc-sample.js';

const CONSOLES = Math.max(1, Number(process.env.CONSOLES ?? 1));
const BROKERS = Math.max(1, Number(process.env.FLEET_BROKERS ?? 1));
// FLEET_RESTART=broker, console, or both in turn (broker,console): one enrollment for both storms.
const RESTARTS = (process.env.FLEET_RESTART ?? '').split(',').filter(Boolean);
if (RESTARTS.some((r) => r !== 'broker' && r !== 'console')) {
  console.error('FLEET_RESTART is broker, console, or both (broker,console).');
  process.exit(2);
}
const settings = fleetSettings(100);
const { N, SECONDS, HEARTBEAT, METRICS, CONNECT_RATE, ENROLL_CONCURRENCY } = settings;
/** Agents per simulator process at most: each is an open socket, and a process may hold 20,000 files. */
const PER_PROCESS = 12_000;
const PROCS = Math.max(settings.PROCS, Math.ceil(N / PER_PROCESS));
const MEMBER = { email: 'user@fleetlink.local', password: 'user' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const max = (xs: number[]) => (xs.length ? Math.max(...xs) : NaN);
/** A metric's series added up, whatever their labels, from a Prometheus scrape. */
const sumOfSeries = (text: string, name: string) => [...text.matchAll(new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, 'gm'))].reduce((n, m) => n + Number(m[1]), 0);
const inSeconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const inMs = (ms: number) => `${ms.toFixed(0)} ms`;

const bin = process.env.MOSQUITTO_BIN ?? mosquittoBin();
if (!bin || !process.env.TEST_DATABASE_URL) {
  console.error('This run needs Mosquitto (mosquitto on the PATH) and TEST_DATABASE_URL (a PostgreSQL server; a fresh database is made there).');
  process.exit(2);
}
const database = (await createTestDatabase('fleetlink_consoles'))!;
const brokers: MosquittoProcess[] = [];
// FLEET_BROKER_NICE=5: the message servers yield the CPU to the console and PostgreSQL, as they
// would on machines of their own (with FLEET_SIM_NICE above it, the simulated devices yield to all).
const BROKER_NICE = Number(process.env.FLEET_BROKER_NICE ?? 0);
for (let i = 0; i < BROKERS; i++) brokers.push(await startMosquitto(bin, await freePort(), { nice: BROKER_NICE }));
const lb = await startBalancer();
const ports = await Promise.all(Array.from({ length: CONSOLES }, () => freePort()));
// Each console's Prometheus metrics (loopback, no token): what it waits on during a restart.
const metricsPorts = await Promise.all(ports.map(() => freePort()));
const dataDirs = ports.map(() => tempDir('fleetlink-console-'));
const shared = {
  DATABASE_URL: database.url,
  PUBLIC_URL: lb.url,
  SECRET_KEY: 'fleet-consoles-bench-secret-key-0123456789',
  HOST: '127.0.0.1',
  MQTT_EMBEDDED_PORT: '0',
  TUNNEL_SSH_PORT: '0',
  AGENT_HEARTBEAT_SECONDS: String(HEARTBEAT),
  AGENT_METRICS_SECONDS: String(METRICS),
  ENROLL_RATE_LIMIT: String(Math.max(100, N * 2)),
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
};
const envOf = (i: number) => ({ ...shared, PORT: String(ports[i]), METRICS_PORT: String(metricsPorts[i]), DATA_DIR: dataDirs[i]! });
// BENCH_PROFILE=<dir>: each console's CPU profile, written there when it stops.
const nodeArgs = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
const consoles: ConsoleProcess[] = [];
const children: ChildProcess[] = [];
let stopping = false;
// Signed in through the balancer: the consoles' issuer is the PUBLIC_URL they share.
const adminToken = tokenFor(lb.url, { email: 'admin@fleetlink.local', password: 'admin' });
const memberToken = tokenFor(lb.url, MEMBER);

async function shutdown(code: number) {
  if (stopping) process.exit(code);
  stopping = true;
  await stopChildren(children);
  await Promise.all(consoles.map((c) => c.kill('SIGTERM')));
  await Promise.all([...brokers.map((b) => b.dispose()), lb.close()]).catch(() => {});
  await database.drop().catch((err: Error) => console.error(`could not drop the bench database: ${err.message}`));
  dataDirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  process.exit(code);
}
endOnSignalsAndAfter(SECONDS + N / 10 + 900, shutdown, log);

/**
 * Scrapes a console's metrics every second until stopped: the worst event-loop delay, queries
 * waiting for a pool connection, and backlog of device messages seen meanwhile (a console
 * restarting answers nothing for a while). Beside them, from the same seconds, what its JavaScript
 * thread did: ran, waited for a CPU (the machine busy with others), or collected garbage, in all
 * and in the second its event loop was latest; so a late loop is told to be starved or busy.
 */
function watchConsole(metricsPort: number, pidOf: () => number) {
  const seen = { loopMs: 0, apiWaiting: 0, trafficWaiting: 0, backlog: 0 };
  const thread = { runMs: 0, waitMs: 0, gcMs: 0, worst: { loopMs: 0, runMs: 0, waitMs: 0, gcMs: 0 } };
  const value = (text: string, name: string, labels = '') => Number(new RegExp(`^${name}${labels ? `\\{${labels}\\}` : ''} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  // Every kind of collection (minor, major, incremental, weak callbacks) adds to the thread's pause.
  const gcMsOf = (text: string) => sumOfSeries(text, 'nodejs_gc_duration_seconds_sum') * 1000;
  // A restarted console is another process: its counters start again, so a second across the restart is not counted.
  let last: { pid: number; runMs: number; waitMs: number; gcMs: number } | undefined;
  const scraper = everySecond({
    base: `http://127.0.0.1:${metricsPort}`,
    pathOf: () => '/metrics',
    record: (_ms, text) => {
      const loopMs = value(text, 'nodejs_eventloop_lag_max_seconds') * 1000;
      const pid = pidOf();
      const now = { pid, ...schedSample(pid), gcMs: gcMsOf(text) };
      if (last?.pid === pid) {
        const d = { runMs: now.runMs - last.runMs, waitMs: now.waitMs - last.waitMs, gcMs: Math.max(0, now.gcMs - last.gcMs) };
        thread.runMs += d.runMs;
        thread.waitMs += d.waitMs;
        thread.gcMs += d.gcMs;
        if (loopMs >= thread.worst.loopMs) thread.worst = { loopMs, ...d };
      }
      last = now;
      seen.loopMs = Math.max(seen.loopMs, loopMs);
      seen.apiWaiting = Math.max(seen.apiWaiting, value(text, 'fleetlink_db_pool_connections', 'pool="api",state="waiting"'));
      seen.trafficWaiting = Math.max(seen.trafficWaiting, value(text, 'fleetlink_db_pool_connections', 'pool="traffic",state="waiting"'));
      seen.backlog = Math.max(seen.backlog, value(text, 'fleetlink_mqtt_backlog'));
    },
  });
  return {
    async stop() {
      await scraper.stop();
      return { ...seen, thread };
    },
  };
}

/** Sessions a console began with the message servers since it started (fleetlink_mqtt_sessions_total, every server). */
async function sessionsOf(i: number): Promise<number> {
  return sumOfSeries(await (await fetch(`http://127.0.0.1:${metricsPorts[i]}/metrics`)).text(), 'fleetlink_mqtt_sessions_total');
}

try {
  // Started together on the new database: one migrates, the others wait for it.
  consoles.push(...(await Promise.all(ports.map((_, i) => startConsoleProcess(envOf(i), nodeArgs)))));
  lb.backends = ports;
  const at = async (i: number, pathname: string, init: RequestInit = {}) =>
    fetch(`http://127.0.0.1:${ports[i]}${pathname}`, { ...init, headers: { authorization: `Bearer ${await adminToken()}`, 'content-type': 'application/json', ...init.headers } });
  // An even share each, and a little over: the console assigns each device to the least loaded.
  const capacity = Math.ceil((N * 1.02) / BROKERS) + 10;
  for (const b of brokers) {
    const registered = await at(0, '/api/server', {
      method: 'POST',
      body: JSON.stringify({ type: 'MESSAGE', url: b.url, maxCapacity: capacity, status: 'ONLINE', username: b.admin.username, password: b.admin.password, blobBaseUrl: lb.url }),
    });
    if (registered.status !== 201) throw new Error(`registering Mosquitto answered ${registered.status}: ${await registered.text()}`);
  }
  log(`${CONSOLES} console(s) on ${lb.url} (ports ${ports.join(', ')}), PostgreSQL, ${BROKERS} Mosquitto (${brokers.map((b) => b.port).join(', ')}, capacity ${capacity} each); N=${N}, heartbeat ${HEARTBEAT} s, metrics ${METRICS} s, ${PROCS} simulator processes`);
  // Each console connects to every server (the others hear of the new servers from the first).
  const connectedToAll = async (i: number) => {
    for (let tries = 0; ; tries++) {
      const servers = (await (await at(i, '/api/servers')).json()) as { type: string; connection?: { state: string } }[];
      if (servers.filter((s) => s.type === 'MESSAGE' && s.connection?.state === 'CONNECTED').length >= BROKERS) return;
      if (tries > 300) throw new Error(`console ${i + 1} did not connect to every Mosquitto`);
      await sleep(200);
    }
  };
  for (let i = 0; i < CONSOLES; i++) await connectedToAll(i);
  // Once the consoles have given their account the device topics.
  const wills = watchWills(brokers);

  // ---- Devices in bulk, a member who searches them, then enrollment through the balancer.
  const sqlClient = new pg.Client({ connectionString: database.url });
  await sqlClient.connect();
  const org = (await sqlClient.query<{ id: string }>(`insert into organizations (type, name) values ('COMPANY', 'Fleet simulation') returning id`)).rows[0]!.id;
  await sqlClient.query(`insert into organization_members (organization_id, email, role) values ($1, $2, 'ADMIN')`, [org, MEMBER.email]);
  await sqlClient.query(
    `insert into devices (organization_id, name, description, tags, installation_key)
     select $1::uuid, 'sim-' || i, 'Simulated agent ' || i || ' in ' || (array['Amsterdam','Berlin','Paris','Madrid','Rome'])[1 + i % 5],
       array['rack-' || (i % 50), case when i % 3 = 0 then 'kiosk' else 'sensor' end], md5(random()::text || i)
     from generate_series(1, $2::int) i`,
    [org, N],
  );
  const rows = (await sqlClient.query<{ id: string; key: string }>(`select id, installation_key as key from devices where organization_id = $1`, [org])).rows;
  const { enrolled, refused, waits, seconds } = await enrollAll(lb.url, rows, ENROLL_CONCURRENCY, log);
  const perServer = new Map<string, number>();
  for (const d of enrolled) perServer.set(d.url!, (perServer.get(d.url!) ?? 0) + 1);
  log(
    `${enrolled.length} enrolled (${refused} refused, ${waits} asked to wait) through the balancer in ${seconds.toFixed(1)} s (${(enrolled.length / seconds).toFixed(0)}/s); requests per console: ${ports.map((p) => lb.served.get(p) ?? 0).join(', ')}; devices per server: ${[...perServer.values()].join(', ')}`,
  );

  // ---- The member's search, every second, against the first console.
  const terms = ['sim-12', 'kiosk', 'Berlin', 'rack-7', 'sim-4242', 'sensor Paris', rows[0]!.id.slice(0, 6)];
  const searches: Record<string, number[]> = { ramp: [], steady: [] };
  let phase = 'ramp';
  const first = `http://127.0.0.1:${ports[0]}`;
  const searcher = everySecond({
    base: first,
    pathOf: (i) => `/api/devices?search=${encodeURIComponent(terms[i % terms.length]!)}`,
    token: memberToken,
    record: (ms) => searches[phase]!.push(ms),
  });

  // ---- Simulators, then the measurement.
  const before = await instances();
  const sims = startSimulators({ url: enrolled[0]!.url!, heartbeatSeconds: HEARTBEAT, metricsSeconds: METRICS, connectRate: CONNECT_RATE }, enrolled, PROCS, dataDirs[0]!, (p, code) => {
    if (!stopping) log(`simulator ${p} exited with ${code}`);
  });
  children.push(...sims.children);
  const { counters } = sims;
  const sum = (k: keyof FleetCounters) => counters.reduce((a, c) => a + (c?.[k] ?? 0), 0);
  const online = async () => Number((await sqlClient.query(`select count(*) from devices where organization_id = $1 and online`, [org])).rows[0].count);
  const steady = { cpu: ports.map(() => [] as number[]), rss: ports.map(() => [] as number[]), handled: ports.map(() => 0), cpuMs: ports.map(() => 0) };
  const peak = { cpu: ports.map(() => 0), rss: ports.map(() => 0) };
  let ramp = { cpuMs: ports.map(() => 0), devices: 0 };
  let last = consoles.map((c) => procSample(c.child.pid!));
  let lastMachine = machineSample();
  let lastHandled = before.map((x) => x.telemetry.handled);
  let lastAt = performance.now();
  const t0 = performance.now();
  let allOnlineAfter: number | undefined;
  let steadyFrom: number | undefined;

  /** One measurement: each console's CPU (% of one core) and RSS since the last, messages handled, devices online. */
  async function measure() {
    await sleep(5000);
    const now = performance.now();
    const samples = consoles.map((c) => procSample(c.child.pid!));
    const cpuMs = samples.map((s, i) => Math.max(0, s.cpuMs - last[i]!.cpuMs));
    const pct = cpuMs.map((ms) => (ms / (now - lastAt)) * 100);
    const machine = machineSample();
    const busy = (machine.busyMs - lastMachine.busyMs) / Math.max(1, machine.totalMs - lastMachine.totalMs);
    lastMachine = machine;
    const handledNow = (await instances()).map((x) => x.telemetry.handled);
    const handled = handledNow.map((h, i) => Math.max(0, h - lastHandled[i]!));
    last = samples;
    lastHandled = handledNow;
    lastAt = now;
    pct.forEach((p, i) => (peak.cpu[i] = Math.max(peak.cpu[i]!, p)));
    samples.forEach((s, i) => (peak.rss[i] = Math.max(peak.rss[i]!, s.rssMb)));
    const up = await online();
    log(
      `${phase.padEnd(7)} started ${sum('started')}/${enrolled.length}, connected ${sum('connected')}, online (DB) ${up}; ${pct.map((p, i) => `console ${i + 1}: CPU ${p.toFixed(0)} %, RSS ${samples[i]!.rssMb.toFixed(0)} MB, handled ${handled[i]}`).join('; ')}; closes ${sum('closes')}; machine ${(busy * 100).toFixed(0)} % busy`,
    );
    return { now, pct, cpuMs, handled, rss: samples.map((s) => s.rssMb), up };
  }

  for (;;) {
    const m = await measure();
    if (steadyFrom === undefined) {
      m.cpuMs.forEach((ms, i) => (ramp.cpuMs[i]! += ms));
      if (m.up >= enrolled.length && allOnlineAfter === undefined) allOnlineAfter = (m.now - t0) / 1000;
      if (sum('started') >= enrolled.length && (m.up >= enrolled.length || m.now - t0 > (N / CONNECT_RATE + 300) * 1000)) {
        steadyFrom = m.now;
        ramp.devices = m.up;
        phase = 'steady';
      }
      continue;
    }
    m.pct.forEach((p, i) => steady.cpu[i]!.push(p));
    m.rss.forEach((r, i) => steady.rss[i]!.push(r));
    m.handled.forEach((h, i) => (steady.handled[i]! += h));
    m.cpuMs.forEach((ms, i) => (steady.cpuMs[i]! += ms));
    if (m.now - steadyFrom >= SECONDS * 1000) break;
  }

  // ---- A restart, with the fleet connected.
  const restart: string[] = [];
  // A console restarted: what it handled and dropped before, and what was sent while it was away.
  let goneBefore: ConsoleInstance['telemetry'] | undefined;
  let sentBefore = 0;
  let sentAway = 0;
  for (const RESTART of RESTARTS) {
    phase = `${RESTART} restart`;
    searches[phase] = [];
    const probes = { health: [] as number[], device: [] as number[] };
    const inside = watchConsole(metricsPorts[0]!, () => consoles[0]!.child.pid!);
    const probers = [
      everySecond({ base: first, pathOf: () => '/api/health', token: memberToken, record: (ms) => probes.health.push(ms) }),
      everySecond({ base: first, pathOf: (i) => `/api/device/${enrolled[i % enrolled.length]!.id}`, token: memberToken, record: (ms) => probes.device.push(ms) }),
    ];
    const closesBefore = sum('closes');
    // Read before the restart's clock starts: the scrape is not part of how long the view took.
    const sessionsBefore = RESTART === 'broker' ? await Promise.all(ports.map((_, i) => sessionsOf(i))) : [];
    const restarted = performance.now();
    let away = 0;
    let stopSeconds = 0;
    if (RESTART === 'broker') {
      await Promise.all(brokers.map((b) => b.stop()));
      await Promise.all(brokers.map((b) => b.start()));
    } else {
      // What the first console handled and dropped, as its counters go with it: to its end, which
      // it prints as it stops (it handles what it has first); asked for now, were that line missing.
      const gone = (await instances())[0]!.telemetry;
      sentBefore = sum('telemetry');
      await consoles[0]!.kill('SIGTERM');
      const said = /console stopped \(SIGTERM\): (\d+) device messages handled since it started, (\d+) dropped/.exec(consoles[0]!.output());
      const final = said ? { handled: Number(said[1]), dropped: Number(said[2]) } : gone;
      if (!said) log('the console did not say what it handled to its end: counted until it was asked to stop');
      goneBefore = { handled: final.handled - before[0]!.telemetry.handled, dropped: final.dropped - before[0]!.telemetry.dropped };
      stopSeconds = (performance.now() - restarted) / 1000;
      consoles[0] = await startConsoleProcess(envOf(0), nodeArgs);
      away = (performance.now() - restarted) / 1000;
      sentAway = sum('telemetry') - sentBefore;
      last[0] = procSample(consoles[0].child.pid!);
      lastHandled[0] = 0;
      await connectedToAll(0);
    }
    let fewest = enrolled.length;
    let wholeAfter: number | undefined;
    const limit = RESTART === 'broker' ? 900 : 300;
    while ((performance.now() - restarted) / 1000 < limit) {
      const m = await measure();
      fewest = Math.min(fewest, m.up);
      if (m.up >= enrolled.length) {
        wholeAfter = (m.now - restarted) / 1000;
        break;
      }
    }
    await Promise.all(probers.map((p) => p.stop()));
    const seen = await inside.stop();
    const whole = wholeAfter === undefined ? `not whole after ${limit} s` : `whole again after ${wholeAfter.toFixed(0)} s`;
    // One session a server and console is the restart itself; each more was given every retained state of its server again.
    const sessionsBegun = RESTART === 'broker' ? await Promise.all(ports.map(async (_, i) => (await sessionsOf(i)) - sessionsBefore[i]!)) : [];
    restart.push(
      RESTART === 'broker'
        ? `Mosquitto restarted (all ${BROKERS}): the console's view ${whole}, fewest online meanwhile ${fewest}; sessions the consoles began with them meanwhile: ${sessionsBegun.join(' / ')} (${BROKERS} each for the restart itself)`
        : `console 1 restarted: away ${away.toFixed(1)} s (stopping ${stopSeconds.toFixed(1)} s, starting ${(away - stopSeconds).toFixed(1)} s), its view ${whole}, fewest online meanwhile ${fewest}; agents that lost their connection meanwhile: ${sum('closes') - closesBefore}`,
      `meanwhile: /api/health max ${max(probes.health).toFixed(0)} ms, a device page max ${max(probes.device).toFixed(0)} ms (p95 ${percentile(probes.device, 95).toFixed(0)} ms), requests that failed ${probers.reduce((n, p) => n + p.failed(), 0)}`,
      `console 1 meanwhile: event loop delay max ${seen.loopMs.toFixed(0)} ms, queries waiting for a connection max ${seen.apiWaiting} (API pool), ${seen.trafficWaiting} (traffic pool), device messages read and not handled max ${seen.backlog}`,
      `console 1's JavaScript thread meanwhile: ran ${inSeconds(seen.thread.runMs)}, waited for a CPU ${inSeconds(seen.thread.waitMs)}, collected garbage ${inSeconds(seen.thread.gcMs)}; in the second its event loop was latest (${inMs(seen.thread.worst.loopMs)}): ran ${inMs(seen.thread.worst.runMs)}, waited ${inMs(seen.thread.worst.waitMs)}, collected garbage ${inMs(seen.thread.worst.gcMs)}`,
    );
  }
  await searcher.stop();

  // ---- Goodbye (clean disconnects), then the consoles' shares against what was sent.
  // Before the goodbyes: the count is of wills Mosquitto published while the fleet was connected.
  await wills.stop();
  const exited = children.map((c) => new Promise((r) => c.once('exit', r)));
  children.forEach((c) => c.kill('SIGTERM'));
  await Promise.all(exited);
  const sent = sum('telemetry');
  // Each console's counters since the simulators started; a restarted one's counts from before its restart added.
  const sinceStart = (all: ConsoleInstance[], key: keyof ConsoleInstance['telemetry']) =>
    all.map((x, i) => (i === 0 && goneBefore ? goneBefore[key] + x.telemetry[key] : x.telemetry[key] - before[i]!.telemetry[key]));
  const ownShares = async () => sinceStart(await instances(), 'handled');
  let shares: number[] = [];
  for (let waited = 0; waited < 30; waited++) {
    shares = await ownShares();
    if (shares.reduce((a, b) => a + b, 0) >= sent) break;
    await sleep(1000);
  }
  await sleep(2000);
  const after = await instances();
  shares = await ownShares();
  const dropped = sinceStart(after, 'dropped');
  const total = shares.reduce((a, b) => a + b, 0);
  await sqlClient.end();

  console.log('\n==== fleet simulation: console processes, PostgreSQL, Mosquitto ====');
  console.log(`devices: ${N} (enrolled ${enrolled.length} in ${seconds.toFixed(1)} s, ${waits} asked to wait), ${CONSOLES} console(s), ${BROKERS} Mosquitto (devices each: ${[...perServer.values()].join(', ')}), ${PROCS} simulator processes; heartbeat ${HEARTBEAT} s, metrics ${METRICS} s, connect rate ${CONNECT_RATE}/s`);
  console.log(`all online in the console's view after: ${allOnlineAfter === undefined ? 'not during the ramp' : `${allOnlineAfter.toFixed(0)} s`}`);
  ports.forEach((_, i) => {
    const perMessage = steady.cpuMs[i]! / Math.max(1, steady.handled[i]!);
    console.log(
      `console ${i + 1}: steady CPU avg ${avg(steady.cpu[i]!).toFixed(1)} %, max ${max(steady.cpu[i]!).toFixed(1)} % of one core; RSS avg ${avg(steady.rss[i]!).toFixed(0)} MB; peak CPU ${peak.cpu[i]!.toFixed(0)} %, peak RSS ${peak.rss[i]!.toFixed(0)} MB; ` +
        `CPU per device coming online ${(ramp.cpuMs[i]! / Math.max(1, ramp.devices)).toFixed(2)} ms (the ramp's CPU over its devices), per message in steady state ${perMessage.toFixed(3)} ms (${steady.handled[i]} handled); ` +
        `handled in all ${shares[i]} (${((shares[i]! / Math.max(1, total)) * 100).toFixed(1)} %), dropped ${dropped[i]}`,
    );
  });
  for (const [name, xs] of Object.entries(searches)) {
    if (xs.length) console.log(`search (${name}): n=${xs.length}, p50 ${percentile(xs, 50).toFixed(1)} ms, p95 ${percentile(xs, 95).toFixed(1)} ms, max ${max(xs).toFixed(1)} ms`);
  }
  if (searcher.failed()) console.log(`search errors: ${searcher.failed()}`);
  restart.forEach((line) => console.log(line));
  console.log(`simulators: connection closes ${sum('closes')}, errors ${sum('errors')}, requests answered ${sum('requests')}`);
  // After a restart, of Mosquitto or of a console, a console that subscribes anew is given each
  // device's retained state again (Mosquitto's, kept on disk or in memory, until its agent
  // publishes a new one), on a shared subscription too (Mosquitto 2.0.11 gives them to every
  // subscriber of the group): at most one a device more than sent for each console subscribing
  // anew, every console after Mosquitto restarts, the one restarted after a console restart. And
  // QoS 1 is at least once: what agents had published unacknowledged when their connection closed,
  // they publish again, and a Mosquitto that passed it on before it stopped has it handled twice.
  const retainedAgain = RESTARTS.reduce((n, r) => n + (r === 'broker' ? CONSOLES : 1), 0) * enrolled.length;
  const resent = retainedAgain + sum('unackedAtClose');
  // Beside what the simulators sent, the wills Mosquitto published for them: each to be handled once too.
  const published = sent + wills.count();
  // With one console, what was sent while it restarted reached nobody: a shared subscription
  // without a subscriber keeps nothing.
  const unheard = RESTARTS.includes('console') && CONSOLES === 1 ? sentAway : 0;
  const balanced = total >= published - unheard && total - published <= resent;
  const verdict =
    total === published ? 'each once'
    : balanced && total < published ? `${published - total} fewer: sent while the only console was away (${unheard} sent meanwhile)`
    : balanced
      ? `${total - published} more, within the ${retainedAgain} retained states given again to a console that subscribed anew after a restart and the ${sum('unackedAtClose')} messages agents had unacknowledged when their connection closed and sent again`
    : total > published ? `${total - published} more, ${total - published - resent} beyond the ${retainedAgain} retained states and ${sum('unackedAtClose')} resends: handled twice`
    : `${published - total} fewer: ${unheard ? `${published - unheard - total} lost beyond the ${unheard} sent while the only console was away` : 'lost'}`;
  console.log(`telemetry sent by the simulators: ${sent}, and ${wills.count()} last wills Mosquitto published for them; handled by the consoles together: ${total} (${verdict})`);
  await shutdown(balanced ? 0 : 1);
} catch (err) {
  console.error(err);
  await shutdown(1);
}

/** Each console's own account of itself (GET /api/servers-console): its telemetry counters. */
async function instances(): Promise<ConsoleInstance[]> {
  return Promise.all(
    ports.map(async (port) => {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/servers-console`, { headers: { authorization: `Bearer ${await adminToken()}` } });
        return consoleInstanceSchema.parse(await res.json());
      } catch {
        return { id: '', startedAt: new Date(0).toISOString(), telemetry: { handled: 0, dropped: 0 } };
      }
    }),
  );
}
