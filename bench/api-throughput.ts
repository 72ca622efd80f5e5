/**
 * API throughput (issue 69): the console on a fresh PostgreSQL database with devices of realistic
 * size (agent properties, drives, three monitors, two tunnels, a day of load samples), beside a bare
 * Fastify + pg server answering the same device row by primary key (bench/api-reference-server.ts),
 * each a process of its own (the console logging as in production, the reference not at all),
 * both driven from here the way autocannon does (bench/http-load.ts): requests/s, p50/p99, the
 * ratio to the reference, and the CPU each request cost the server's process and PostgreSQL
 * (running on this machine, read from /proc).
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/api-throughput.ts
 *
 * BENCH_SECONDS (10) per route, BENCH_CONNECTIONS (20), BENCH_DEVICES (10,000); BENCH_ROUTES, a regular
 * expression, picks routes.
 * Target: GET /api/device/{id} at ≥ 50 % of the reference; every route at p99 < 50 ms; no errors.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.js';
import { passwordLogin } from '../apps/server/src/idp/password-login.js';
import { seedOrganization } from '../apps/server/src/modules/devices/device-fleet.test-support.js';
import { startConsoleProcess } from '../apps/server/src/testing/console-process.test-support.js';
import { createTestDatabase, freePort } from '../apps/server/src/testing/test-console.js';
import { drive, type LoadResult } from './http-load.js';
import { postgresCpuMs, procSample } from './proc-sample.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 10_000);
const ADMIN = 'admin@fleetlink.local';

if (!process.env.TEST_DATABASE_URL) {
  console.error('Set TEST_DATABASE_URL to a PostgreSQL server (a fresh database is made there and dropped).');
  process.exit(2);
}
const fresh = (await createTestDatabase('fleetlink_api_bench'))!;
const dataDir = mkdtempSync(path.join(tmpdir(), 'fleetlink-api-bench-'));
const port = await freePort();
const consoleUrl = `http://127.0.0.1:${port}`;
const app = await startConsoleProcess({
  PORT: String(port),
  HOST: '127.0.0.1',
  PUBLIC_URL: consoleUrl,
  DATA_DIR: dataDir,
  DATABASE_URL: fresh.url,
  // Production logging: a JSON line per request.
  LOG_LEVEL: 'info',
  MQTT_EMBEDDED_PORT: String(await freePort()),
  TUNNEL_SSH_PORT: String(await freePort()),
  TUNNEL_HTTP_PORT: String(await freePort()),
  // BENCH_PROFILE=<dir>: the console's CPU profile, written there when it stops.
}, process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []);
// Its log is read no further (here it would cost the load's process time); only drained.
app.child.stdout!.removeAllListeners('data').resume();
app.child.stderr!.removeAllListeners('data').resume();

const reference = await startReference(fresh.url);
const database = await openDatabase({ databaseUrl: fresh.url, dataDir });
const db = database.db;
const results: { route: string; result: LoadResult; cpu: CpuPerRequest }[] = [];
try {
  const t0 = performance.now();
  const organizationId = await seedOrganization(db, 'Throughput fleet', DEVICES, ADMIN);
  await db.execute(sql`
    insert into monitors (device_id, name, type, path, value, note, observed_at)
    select d.id, m.name, m.type, m.path, '1.4.2', null, now() from devices d
    cross join (values ('app', 'VERSION', '/opt/app/version'), ('logs', 'SIZE', '/var/log'), ('config', 'UPDATE', '/etc/app.conf')) m(name, type, path)
    where d.organization_id = ${organizationId}`);
  await db.execute(sql`
    insert into tunnels (device_id, name, type, port, mode, host, path)
    select d.id, t.name, t.type, t.port, 'PERMANENT', 'localhost', case when t.type = 'HTTP' then 'web-' || left(d.id::text, 8) end from devices d
    cross join (values ('web', 'HTTP', 80), ('ssh', 'TCP', 22)) t(name, type, port)
    where d.organization_id = ${organizationId}`);
  const sample = await db.execute<{ id: string }>(sql`select id from devices where organization_id = ${organizationId} order by random() limit 200`);
  const ids = sample.rows.map((r) => r.id);
  await db.execute(sql`
    insert into device_metrics (device_id, time, system_load)
    select d, now() - (n * interval '5 minutes'), random() from unnest(string_to_array(${ids.join(',')}, ',')::uuid[]) d cross join generate_series(0, 287) n`);
  await db.execute(sql`vacuum analyze`);
  console.log(`seeded ${DEVICES} devices (3 monitors, 2 tunnels each; a day of load for 200) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const token = (await passwordLogin({ consoleUrl, email: ADMIN, password: 'admin' })).access_token;
  const auth = { authorization: `Bearer ${token}` };
  const anyId = () => ids[Math.floor(Math.random() * ids.length)]!;
  const searches = ['kiosk', 'device-42', 'berl', 'host-7', 'rack-12 kiosk'];
  const anySearch = () => encodeURIComponent(searches[Math.floor(Math.random() * searches.length)]!);
  const load = { connections: CONNECTIONS, warmupSeconds: 0 };

  // Warmed up apart, so that the CPU read around the measured run is that run's alone.
  const measured = async (server: ChildProcess, run: (seconds: number) => Promise<LoadResult>) => {
    await run(2);
    const before = { server: procSample(server.pid!).cpuMs, database: postgresCpuMs() };
    const result = await run(SECONDS);
    const per = (ms: number) => ms / Math.max(result.requests, 1);
    const cpu = { server: per(procSample(server.pid!).cpuMs - before.server), database: per(postgresCpuMs() - before.database) };
    return { result, cpu };
  };
  results.push({ route: 'reference GET /device/{id}', ...(await measured(reference.child, (seconds) => drive({ base: reference.url, path: () => `/device/${anyId()}`, ...load, seconds }))) });
  for (const [route, pathOf] of [
    ['GET /api/device/{id}', () => `/api/device/${anyId()}`],
    ['GET /api/devices?search=…', () => `/api/devices?search=${anySearch()}&size=20`],
    ['GET /api/organizations', () => '/api/organizations'],
    ['GET /api/device/{id}/metrics', () => `/api/device/${anyId()}/metrics`],
  ] as const) {
    if (process.env.BENCH_ROUTES && !new RegExp(process.env.BENCH_ROUTES).test(route)) continue;
    results.push({ route, ...(await measured(app.child, (seconds) => drive({ base: consoleUrl, path: pathOf, headers: auth, ...load, seconds }))) });
  }
} finally {
  await app.kill();
  reference.child.kill('SIGTERM');
  await database.close();
  await fresh.drop().catch((err: Error) => console.error(`could not drop the bench database: ${err.message}`));
  rmSync(dataDir, { recursive: true, force: true });
}

const floor = results[0]!.result.perSecond;
console.log(`\n${CONNECTIONS} connections, ${SECONDS} s per route, ${DEVICES} devices, PostgreSQL`);
console.log('(CPU per request: of the server process, and of PostgreSQL, which runs on this machine)');
console.log(
  `${'route'.padEnd(30)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'errors'.padStart(6)} ${'ratio'.padStart(6)} ${'server ms'.padStart(9)} ${'pg ms'.padStart(6)}`,
);
for (const { route, result, cpu } of results) {
  const ratio = `${Math.round((result.perSecond / floor) * 100)} %`;
  console.log(
    `${route.padEnd(30)} ${result.perSecond.toFixed(0).padStart(8)} ${result.p50Ms.toFixed(1).padStart(7)} ${result.p99Ms.toFixed(1).padStart(7)} ${String(result.errors).padStart(6)} ${ratio.padStart(6)} ${cpu.server.toFixed(2).padStart(9)} ${cpu.database.toFixed(2).padStart(6)}`,
  );
}
process.exit(0);

interface CpuPerRequest {
  server: number;
  database: number;
}

async function startReference(databaseUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'api-reference-server.ts')], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`the reference server exited with ${code}: ${out}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}
