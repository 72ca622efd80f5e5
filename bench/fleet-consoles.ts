/**
 * Fleet benchmark with several consoles (issue 60), run by bench/fleet-sim.ts when CONSOLES > 1:
 * CONSOLES console processes on one fresh PostgreSQL database and one Mosquitto with dynamic
 * security (its own, on a free port), behind a round-robin balancer at the PUBLIC_URL they share.
 * N devices enroll through the balancer (so every console enrolls some), simulators (fleet-agents.ts)
 * connect them to Mosquitto, and the consoles share the telemetry through a shared subscription.
 * Printed every 5 s and at the end: each console's CPU and RSS and the device messages it handled;
 * at the end, after the simulators said goodbye, that the consoles' shares add up to the telemetry
 * the simulators published: none lost, none handled twice.
 *
 *   CONSOLES=2 FLEET_N=1000 FLEET_SECONDS=60 TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/fleet-sim.ts
 *
 * Environment as fleet-sim.ts's (FLEET_N, FLEET_SECONDS, FLEET_HEARTBEAT_SECONDS, FLEET_METRICS_SECONDS,
 * FLEET_CONNECT_RATE, FLEET_PROCS, FLEET_ENROLL_CONCURRENCY), with TEST_DATABASE_URL (a fresh database
 * is made there) and Mosquitto installed (MOSQUITTO_BIN, or `mosquitto` on the PATH).
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { consoleInstanceSchema, type ConsoleInstance } from '@fleetlink/contract';
import { passwordLogin } from '../apps/server/src/idp/password-login.js';
import { mosquittoBin, startMosquitto, tempDir } from '../apps/server/src/modules/broker/broker.test-support.js';
import { startBalancer } from '../apps/server/src/testing/balancer.test-support.js';
import { startConsoleProcess, type ConsoleProcess } from '../apps/server/src/testing/console-process.test-support.js';
import { createTestDatabase, freePort } from '../apps/server/src/testing/test-console.js';
import type { FleetCounters } from './fleet-agents.js';
import { endOnSignalsAndAfter, enrollAll, fleetSettings, log, startSimulators, stopChildren } from './fleet-support.js';
import { procSample } from './proc-sample.js';

const CONSOLES = Number(process.env.CONSOLES ?? 2);
const { N, SECONDS, HEARTBEAT, METRICS, CONNECT_RATE, PROCS, ENROLL_CONCURRENCY } = fleetSettings(100);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));


const bin = process.env.MOSQUITTO_BIN ?? mosquittoBin();
if (!bin || !process.env.TEST_DATABASE_URL) {
  console.error('CONSOLES > 1 needs Mosquitto (mosquitto on the PATH) and TEST_DATABASE_URL (a PostgreSQL server; a fresh database is made there).');
  process.exit(2);
}
const database = (await createTestDatabase('fleetlink_consoles'))!;
const mosquitto = await startMosquitto(bin, await freePort());
const lb = await startBalancer();
const ports = await Promise.all(Array.from({ length: CONSOLES }, () => freePort()));
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
const consoles: ConsoleProcess[] = [];
const children: ChildProcess[] = [];
let stopping = false;

async function shutdown(code: number) {
  if (stopping) process.exit(code);
  stopping = true;
  await stopChildren(children);
  await Promise.all(consoles.map((c) => c.kill('SIGTERM')));
  await Promise.all([mosquitto.dispose(), lb.close()]).catch(() => {});
  await database.drop().catch((err: Error) => console.error(`could not drop the bench database: ${err.message}`));
  dataDirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  process.exit(code);
}
endOnSignalsAndAfter(SECONDS + N / 10 + 600, shutdown, log);

try {
  // Started together on the new database: one migrates, the others wait for it.
  consoles.push(...(await Promise.all(ports.map((port, i) => startConsoleProcess({ ...shared, PORT: String(port), DATA_DIR: dataDirs[i]! })))));
  lb.backends = ports;
  const admin = (await passwordLogin({ consoleUrl: lb.url, email: 'admin@fleetlink.local', password: 'admin' })).access_token;
  const at = (i: number, pathname: string, init: RequestInit = {}) =>
    fetch(`http://127.0.0.1:${ports[i]}${pathname}`, { ...init, headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', ...init.headers } });
  const registered = await at(0, '/api/server', {
    method: 'POST',
    body: JSON.stringify({ type: 'MESSAGE', url: mosquitto.url, maxCapacity: Math.max(100, N), status: 'ONLINE', username: mosquitto.admin.username, password: mosquitto.admin.password, blobBaseUrl: lb.url }),
  });
  if (registered.status !== 201) throw new Error(`registering Mosquitto answered ${registered.status}: ${await registered.text()}`);
  log(`${CONSOLES} consoles on ${lb.url} (ports ${ports.join(', ')}), PostgreSQL, Mosquitto ${mosquitto.url}; N=${N}, heartbeat ${HEARTBEAT} s, metrics ${METRICS} s`);
  // Each console connects (the others hear of the new server from the first).
  const instances = async (): Promise<ConsoleInstance[]> => Promise.all(ports.map(async (_, i) => consoleInstanceSchema.parse(await (await at(i, '/api/servers-console')).json())));
  for (let i = 0; i < CONSOLES; i++) {
    for (let tries = 0; ; tries++) {
      const servers = (await (await at(i, '/api/servers')).json()) as { connection?: { state: string } }[];
      if (servers.some((s) => s.connection?.state === 'CONNECTED')) break;
      if (tries > 100) throw new Error(`console ${i + 1} did not connect to Mosquitto`);
      await sleep(200);
    }
  }

  // ---- Devices in bulk, then enrollment through the balancer.
  const sqlClient = new pg.Client({ connectionString: database.url });
  await sqlClient.connect();
  const org = (await sqlClient.query<{ id: string }>(`insert into organizations (type, name) values ('COMPANY', 'Fleet simulation') returning id`)).rows[0]!.id;
  await sqlClient.query(`insert into devices (organization_id, name, installation_key) select $1::uuid, 'sim-' || i, md5(random()::text || i) from generate_series(1, $2::int) i`, [org, N]);
  const rows = (await sqlClient.query<{ id: string; key: string }>(`select id, installation_key as key from devices where organization_id = $1`, [org])).rows;
  const { enrolled, refused, seconds } = await enrollAll(lb.url, rows, ENROLL_CONCURRENCY, log);
  log(`${enrolled.length} enrolled (${refused} refused) through the balancer in ${seconds.toFixed(1)} s; requests per console: ${ports.map((p) => lb.served.get(p) ?? 0).join(', ')}`);

  // ---- Simulators, then the measurement.
  const before = await instances();
  const sims = startSimulators({ url: mosquitto.url, heartbeatSeconds: HEARTBEAT, metricsSeconds: METRICS, connectRate: CONNECT_RATE }, enrolled, PROCS, dataDirs[0]!, (p, code) => {
    if (!stopping) log(`simulator ${p} exited with ${code}`);
  });
  children.push(...sims.children);
  const { counters } = sims;
  const sum = (k: keyof FleetCounters) => counters.reduce((a, c) => a + (c?.[k] ?? 0), 0);
  const online = async () => Number((await sqlClient.query(`select count(*) from devices where organization_id = $1 and online`, [org])).rows[0].count);
  const cpu: number[][] = ports.map(() => []);
  const rss: number[][] = ports.map(() => []);
  let last = consoles.map((c) => procSample(c.child.pid!));
  let lastAt = performance.now();
  const t0 = performance.now();
  let steadyFrom: number | undefined;
  for (;;) {
    await sleep(5000);
    const now = performance.now();
    const samples = consoles.map((c) => procSample(c.child.pid!));
    const pct = samples.map((s, i) => ((s.cpuMs - last[i]!.cpuMs) / (now - lastAt)) * 100);
    last = samples;
    lastAt = now;
    const handled = (await instances()).map((x, i) => x.telemetry.handled - before[i]!.telemetry.handled);
    const up = await online();
    log(`started ${sum('started')}/${enrolled.length}, online (DB) ${up}; ${pct.map((p, i) => `console ${i + 1}: CPU ${p.toFixed(0)} %, RSS ${samples[i]!.rssMb.toFixed(0)} MB, handled ${handled[i]}`).join('; ')}; telemetry sent ${sum('telemetry')}`);
    if (steadyFrom === undefined) {
      if (sum('started') >= enrolled.length && up >= enrolled.length) steadyFrom = now;
      else if (now - t0 > (N / CONNECT_RATE + 120) * 1000) steadyFrom = now;
      continue;
    }
    pct.forEach((p, i) => cpu[i]!.push(p));
    samples.forEach((s, i) => rss[i]!.push(s.rssMb));
    if (now - steadyFrom >= SECONDS * 1000) break;
  }

  // ---- Goodbye (clean disconnects), then the consoles' shares against what was sent.
  const exited = children.map((c) => new Promise((r) => c.once('exit', r)));
  children.forEach((c) => c.kill('SIGTERM'));
  await Promise.all(exited);
  const sent = sum('telemetry');
  let shares: number[] = [];
  for (let waited = 0; waited < 30; waited++) {
    shares = (await instances()).map((x, i) => x.telemetry.handled - before[i]!.telemetry.handled);
    if (shares.reduce((a, b) => a + b, 0) >= sent) break;
    await sleep(1000);
  }
  await sleep(2000);
  const after = await instances();
  shares = after.map((x, i) => x.telemetry.handled - before[i]!.telemetry.handled);
  const dropped = after.map((x, i) => x.telemetry.dropped - before[i]!.telemetry.dropped);
  const total = shares.reduce((a, b) => a + b, 0);
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  await sqlClient.end();

  console.log('\n==== fleet simulation, several consoles ====');
  console.log(`devices: ${N} (enrolled ${enrolled.length}), ${CONSOLES} consoles, ${PROCS} simulator processes; heartbeat ${HEARTBEAT} s, metrics ${METRICS} s; PostgreSQL + Mosquitto (dynamic security)`);
  ports.forEach((_, i) =>
    console.log(`console ${i + 1}: CPU avg ${avg(cpu[i]!).toFixed(1)} %, max ${Math.max(...cpu[i]!).toFixed(1)} % of one core; RSS avg ${avg(rss[i]!).toFixed(0)} MB; handled ${shares[i]} (${((shares[i]! / Math.max(1, total)) * 100).toFixed(1)} %), dropped ${dropped[i]}`),
  );
  console.log(`telemetry sent by the simulators: ${sent}; handled by the consoles together: ${total} (${total === sent ? 'each once' : total > sent ? `${total - sent} more than sent: handled twice` : `${sent - total} fewer: lost`})`);
  await shutdown(total === sent ? 0 : 1);
} catch (err) {
  console.error(err);
  await shutdown(1);
}
