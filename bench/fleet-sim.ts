/**
 * Fleet benchmark (issue 4 (b)): N simulated agents against one console with its embedded broker.
 *
 * The console runs in this process (startConsole, PGlite in a temp folder, or PostgreSQL with
 * DATABASE_URL pointing at a fresh database). N devices are written to the database in bulk, each
 * enrolls through the real enrollment API (POST /api/agent/enroll), and child processes
 * (bench/fleet-agents.ts) connect them to the embedded broker with the issued credentials, then
 * publish state and properties once and heartbeats and load samples at the enrolled intervals.
 * Meanwhile a member searches devices (GET /api/devices?search=…, real token). Reported: devices
 * online by the console's own view (devices.online), the console process's CPU and RSS, its event
 * loop delay, search latency p50/p95, and the simulators' own cost. At the end every simulator is
 * killed at once (every last will fires together): reported is how long until the console sees the
 * whole fleet offline, and that it is still up. Everything is on 127.0.0.1; the run stops by itself.
 *
 *   FLEET_N=1000 FLEET_SECONDS=120 npx tsx bench/fleet-sim.ts
 *   FLEET_N=10000 FLEET_SECONDS=300 npx tsx bench/fleet-sim.ts
 *
 * Environment: FLEET_N (1000), FLEET_SECONDS (120: measured after the ramp), FLEET_HEARTBEAT_SECONDS
 * (30) and FLEET_METRICS_SECONDS (60), the console's intervals, shorten them for quick runs;
 * FLEET_CONNECT_RATE (250 new connections/s), FLEET_PROCS (simulator processes, 2), FLEET_SIM_NICE (0; 10 runs
 * the simulated devices at a lower priority than the console, PostgreSQL and Mosquitto),
 * FLEET_ENROLL_CONCURRENCY (16), DATABASE_URL (PostgreSQL instead of PGlite), or TEST_DATABASE_URL
 * (a PostgreSQL server where a fresh database is created for the run and dropped after it, as the
 * test console does: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres).
 * CONSOLES=2 (or more) or FLEET_BROKERS=n runs bench/fleet-consoles.ts instead: console processes on
 * PostgreSQL sharing the telemetry of n Mosquitto servers (FLEET_RESTART=broker|console|broker,console restarts them).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { and, count, eq, sql } from 'drizzle-orm';
import { devices, organizationMembers, organizations, servers } from '../apps/server/src/db/schema/index.js';
import type { FleetCounters } from './fleet-agents.js';
import { endOnSignalsAndAfter, enrollAll, everySecond, fleetSettings, log, startBenchConsole, startSimulators, tokenFor } from './fleet-support.js';
import { procSample } from './proc-sample.js';
import { percentile } from './percentile.js';

// Several consoles (issue 60) or Mosquitto servers (issue 70) are a run of their own: console
// processes on PostgreSQL and Mosquitto, as production runs them.
if (Number(process.env.CONSOLES ?? 1) > 1 || process.env.FLEET_BROKERS) {
  await import('./fleet-consoles.js');
  await new Promise(() => {});
}

const { N, SECONDS, HEARTBEAT, METRICS, CONNECT_RATE, PROCS, ENROLL_CONCURRENCY } = fleetSettings(250);
const MEMBER = { email: 'user@fleetlink.local', password: 'user' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => (bytes / 1048576).toFixed(0);

const { consoleApp, db, dataDir, children, shutdown, stopping } = await startBenchConsole('fleet', {
  AGENT_HEARTBEAT_SECONDS: String(HEARTBEAT),
  AGENT_METRICS_SECONDS: String(METRICS),
  ENROLL_RATE_LIMIT: String(Math.max(100, N * 2)),
});
// Ramp, enrollment and measurement, with a generous margin.
endOnSignalsAndAfter(SECONDS + N / 20 + 600, shutdown, log);

try {
  log(`console on ${consoleApp.url} (${consoleApp.database.kind}), broker ${consoleApp.messaging!.broker!.url}; N=${N}, heartbeat ${HEARTBEAT} s, metrics ${METRICS} s`);

  // ---- Devices in bulk, in one organization the member belongs to; the broker may take them all.
  let t0 = performance.now();
  const [org] = await db.insert(organizations).values({ type: 'COMPANY', name: 'Fleet simulation' }).returning({ id: organizations.id });
  const orgId = org!.id;
  await db.insert(organizationMembers).values({ organizationId: orgId, email: MEMBER.email, role: 'ADMIN' });
  await db.execute(sql`
    insert into devices (organization_id, name, description, tags, installation_key)
    select ${orgId}::uuid, 'sim-' || i, 'Simulated agent ' || i || ' in ' || (array['Amsterdam','Berlin','Paris','Madrid','Rome'])[1 + i % 5],
      array['rack-' || (i % 50), case when i % 3 = 0 then 'kiosk' else 'sensor' end], md5(random()::text || i)
    from generate_series(1, ${N}) i`);
  await db.update(servers).set({ maxCapacity: Math.max(100, N) }).where(eq(servers.id, consoleApp.messaging!.embeddedServerId!));
  const rows = await db.select({ id: devices.id, key: devices.installationKey }).from(devices).where(eq(devices.organizationId, orgId));
  log(`${rows.length} devices written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // ---- Enrollment through the API, as each agent's first run does.
  const { enrolled, refused, seconds: enrollSeconds, brokerUrl } = await enrollAll(consoleApp.url, rows, ENROLL_CONCURRENCY, log);
  log(`${enrolled.length} enrolled (${refused} refused) in ${enrollSeconds.toFixed(1)} s (${(enrolled.length / enrollSeconds).toFixed(0)}/s)`);
  if (!brokerUrl.startsWith('mqtt://127.0.0.1:')) throw new Error(`unexpected broker URL ${brokerUrl}`);

  // ---- Simulators: separate processes, so this process's CPU and memory are the console's own.
  const sims = startSimulators({ url: brokerUrl, heartbeatSeconds: HEARTBEAT, metricsSeconds: METRICS, connectRate: CONNECT_RATE }, enrolled, PROCS, dataDir, (p, code) => {
    if (!stopping()) log(`simulator ${p} exited with ${code}`);
  });
  children.push(...sims.children);
  const { counters } = sims;
  const sum = (k: keyof FleetCounters) => counters.reduce((a, c) => a + (c?.[k] ?? 0), 0);

  // ---- Measurement: every second a search; every 5 s the console's own view and its cost.
  const terms = ['sim-12', 'kiosk', 'Berlin', 'rack-7', 'sim-4242', 'Debian', 'sensor Paris', rows[0]!.id.slice(0, 6)];
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const phases = { ramp: [] as number[], steady: [] as number[] };
  let phase: keyof typeof phases = 'ramp';
  const searcher = everySecond({
    base: consoleApp.url,
    pathOf: (i) => `/api/devices?search=${encodeURIComponent(terms[i % terms.length]!)}`,
    token: tokenFor(consoleApp.url, MEMBER),
    record: (ms) => phases[phase].push(ms),
  });

  // The console's own view; when its database pool is saturated (an overloaded ramp) the last answer stands.
  let lastOnline = 0;
  const onlineCount = async () => {
    try {
      lastOnline = (await db.select({ n: count() }).from(devices).where(and(eq(devices.organizationId, orgId), eq(devices.online, true))))[0]!.n;
    } catch (err) {
      log(`online count failed: ${(err as Error).message}`);
    }
    return lastOnline;
  };
  const steady = { online: [] as number[], cpu: [] as number[], rss: [] as number[], simCpu: [] as number[], simRss: [] as number[] };
  let lastCpu = process.cpuUsage();
  let lastAt = performance.now();
  let lastSim = children.map((c) => procSample(c.pid!));
  const rampStarted = performance.now();
  let allOnlineAfter: number | undefined;
  let steadyStarted: number | undefined;
  for (;;) {
    await sleep(5000);
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    const cpuPct = ((cpu.user + cpu.system) / 1000 / (now - lastAt)) * 100;
    const sim = children.map((c) => procSample(c.pid!));
    const simCpuPct = sim.reduce((a, s, i) => a + (s.cpuMs - lastSim[i]!.cpuMs), 0) / (now - lastAt) * 100;
    const simRss = sim.reduce((a, s) => a + s.rssMb, 0);
    lastCpu = process.cpuUsage();
    lastAt = now;
    lastSim = sim;
    const online = await onlineCount();
    const rss = process.memoryUsage().rss;
    log(
      `${phase.padEnd(6)} started ${sum('started')}/${enrolled.length}, connected ${sum('connected')}, online (DB) ${online}; console CPU ${cpuPct.toFixed(0)} %, RSS ${mb(rss)} MB, loop p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms; sims CPU ${simCpuPct.toFixed(0)} %, RSS ${simRss.toFixed(0)} MB; msgs ${sum('published')}, closes ${sum('closes')}`,
    );
    if (phase === 'ramp') {
      if (online >= enrolled.length && allOnlineAfter === undefined) allOnlineAfter = (now - rampStarted) / 1000;
      // Steady state: everyone started, and either all online or the ramp has had a fair chance.
      if (sum('started') >= enrolled.length && (online >= enrolled.length || now - rampStarted > (N / CONNECT_RATE + 120) * 1000)) {
        phase = 'steady';
        steadyStarted = now;
        loop.reset();
      }
      continue;
    }
    steady.online.push(online);
    steady.cpu.push(cpuPct);
    steady.rss.push(rss / 1048576);
    steady.simCpu.push(simCpuPct);
    steady.simRss.push(simRss);
    if (now - steadyStarted! >= SECONDS * 1000) break;
  }
  await searcher.stop();
  const loopP99 = loop.percentile(99) / 1e6;

  // ---- The whole fleet drops at once (simulators killed: no DISCONNECT, so every last will fires
  // together, as when a site loses power). The console must stay up and see every device offline.
  const dropped = performance.now();
  for (const c of children) c.kill('SIGKILL');
  let offlineAfter: number | undefined;
  let stillOnline = await onlineCount();
  while (performance.now() - dropped < (HEARTBEAT * 3 + 60) * 1000) {
    await sleep(1000);
    stillOnline = await onlineCount();
    if (stillOnline === 0) {
      offlineAfter = (performance.now() - dropped) / 1000;
      break;
    }
  }
  const health = await fetch(`${consoleApp.url}/api/health`).then((r) => r.status).catch((e: Error) => e.message);
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const [metricsRows] = await Promise.all([db.execute(sql`select count(*)::int as n from device_metrics`)]);

  console.log('\n==== fleet simulation ====');
  console.log(`devices: ${N} (enrolled ${enrolled.length} in ${enrollSeconds.toFixed(1)} s), ${PROCS} simulator processes, connect rate ${CONNECT_RATE}/s`);
  console.log(`intervals: heartbeat ${HEARTBEAT} s, metrics ${METRICS} s; database ${consoleApp.database.kind}`);
  console.log(`all online (DB) after: ${allOnlineAfter === undefined ? 'never during the ramp' : `${allOnlineAfter.toFixed(0)} s`}`);
  console.log(`steady state over ${SECONDS} s: online (DB) min ${Math.min(...steady.online)}, avg ${avg(steady.online).toFixed(0)}, max ${Math.max(...steady.online)} of ${enrolled.length}`);
  console.log(`console: CPU avg ${avg(steady.cpu).toFixed(0)} %, max ${Math.max(...steady.cpu).toFixed(0)} % of one core; RSS avg ${avg(steady.rss).toFixed(0)} MB, max ${Math.max(...steady.rss).toFixed(0)} MB; event loop delay p99 ${loopP99.toFixed(0)} ms`);
  console.log(`simulators: CPU avg ${avg(steady.simCpu).toFixed(0)} %, RSS ${avg(steady.simRss).toFixed(0)} MB total; messages published ${sum('published')}, connection closes ${sum('closes')}, errors ${sum('errors')}, requests answered ${sum('requests')}`);
  console.log(`load samples stored: ${(metricsRows as unknown as { rows: { n: number }[] }).rows[0]?.n}`);
  for (const [name, xs] of Object.entries(phases)) {
    console.log(`search (${name}): n=${xs.length}, p50 ${percentile(xs, 50).toFixed(1)} ms, p95 ${percentile(xs, 95).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`);
  }
  if (searcher.failed()) console.log(`search errors: ${searcher.failed()}`);
  console.log(`fleet dropped at once: ${offlineAfter === undefined ? `${stillOnline} still online after ${HEARTBEAT * 3 + 60} s` : `all offline (DB) after ${offlineAfter.toFixed(0)} s`}; console /api/health then: ${health}`);
  await shutdown(0);
} catch (err) {
  console.error(err);
  await shutdown(1);
}
