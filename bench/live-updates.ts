/**
 * Live updates benchmark (issue 61): LIVE_STREAMS open pages (1,000) of one member of an
 * organization with LIVE_DEVICES simulated devices (1,000), the devices toggling online/offline.
 *
 * The console runs in this process (startConsole: PGlite in a temp folder, or a fresh PostgreSQL
 * database with TEST_DATABASE_URL), with its embedded broker; the devices (real MQTT connections with
 * the accounts the enrollment API issued) and the pages (live sockets with a real token) run in one
 * child process (bench/live-clients.ts), so this process's CPU and memory are the console's.
 * Reported: delivery latency from a device's state message to each stream (p50/p90/p99/max, target
 * p99 < 1 s), the console's RSS before and with the streams open (target: + < 100 MB for 1,000), its
 * CPU while the fleet toggles; beside it, in the same run, a bare `ws` relay forwarding the same
 * events to as many sockets (the transport's floor), and the ratio.
 *
 *   npx tsx bench/live-updates.ts
 *   LIVE_STREAMS=1000 LIVE_DEVICES=1000 LIVE_TOGGLES=50 LIVE_SECONDS=60 npx tsx --expose-gc bench/live-updates.ts
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { WebSocketServer } from 'ws';
import { startConsole } from '../apps/server/src/console.js';
import { devices, organizationMembers, organizations, servers } from '../apps/server/src/db/schema/index.js';
import { passwordLogin } from '../apps/server/src/idp/password-login.js';
import { createTestDatabase } from '../apps/server/src/testing/test-console.js';
import type { Latencies, LiveCommand, LivePlan } from './live-clients.js';
import { benchConsoleEnv, enrollAll, log } from './fleet-support.js';

const STREAMS = Number(process.env.LIVE_STREAMS ?? 1000);
const DEVICES = Number(process.env.LIVE_DEVICES ?? 1000);
const TOGGLES = Number(process.env.LIVE_TOGGLES ?? 50);
const SECONDS = Number(process.env.LIVE_SECONDS ?? 60);
const MEMBER = { email: 'user@fleetlink.local', password: 'user' };
const here = path.dirname(fileURLToPath(import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMb = () => process.memoryUsage().rss / 1048576;
const heapMb = () => process.memoryUsage().heapUsed / 1048576;
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await sleep(1000);
  }
};
/** This process's CPU over `work`, in % of one core. */
const cpuOver = async <T>(work: () => Promise<T>): Promise<{ result: T; cpu: number }> => {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await work();
  const c = process.cpuUsage(c0);
  return { result, cpu: ((c.user + c.system) / 1000 / (performance.now() - t0)) * 100 };
};

const dataDir = mkdtempSync(path.join(tmpdir(), 'fleetlink-live-bench-'));
const fresh = process.env.TEST_DATABASE_URL ? await createTestDatabase('fleetlink_live') : undefined;
const env = await benchConsoleEnv(dataDir, {
  TUNNEL_SSH_PORT: '0',
  ENROLL_RATE_LIMIT: String(Math.max(100, DEVICES * 2)),
  // One token for the whole run.
  IDP_ACCESS_TOKEN_TTL: '3600',
  ...(fresh ? { DATABASE_URL: fresh.url } : {}),
});
const consoleApp = await startConsole(env, { webDist: path.join(dataDir, 'no-spa') });
const db = consoleApp.database.db;
const child = fork(path.join(here, 'live-clients.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const limit = setTimeout(() => void shutdown(2, 'time limit'), (SECONDS * 2 + 600) * 1000).unref();

async function shutdown(code: number, why?: string) {
  if (why) log(`stopping: ${why}`);
  clearTimeout(limit);
  child.send({ phase: 'end' } satisfies LiveCommand);
  await sleep(500);
  child.kill('SIGKILL');
  await consoleApp.close().catch(() => {});
  await fresh?.drop().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code);
}

/** Sends a phase to the clients and waits for its end. */
function phase<T>(command: LiveCommand): Promise<T> {
  return new Promise((resolve, reject) => {
    const on = (m: { done?: string; error?: string }) => {
      if (m.error) reject(new Error(m.error));
      else if (m.done === command.phase) resolve(m as T);
      else return;
      child.off('message', on);
    };
    child.on('message', on);
    child.send(command);
  });
}

const fmt = (l: Latencies) =>
  `p50 ${l.p50.toFixed(0)} ms, p90 ${l.p90.toFixed(0)} ms, p99 ${l.p99.toFixed(0)} ms, max ${l.max.toFixed(0)} ms over ${l.samples} deliveries in ${l.messages} messages`;

try {
  log(`console on ${consoleApp.url} (${consoleApp.database.kind}); ${DEVICES} devices, ${STREAMS} streams, ${TOGGLES} state changes/s for ${SECONDS} s`);
  const [org] = await db.insert(organizations).values({ type: 'COMPANY', name: 'Live bench' }).returning({ id: organizations.id });
  await db.insert(organizationMembers).values({ organizationId: org!.id, email: MEMBER.email, role: 'USER' });
  await db.execute(sql`insert into devices (organization_id, name, installation_key) select ${org!.id}::uuid, 'live-' || i, md5(random()::text || i) from generate_series(1, ${DEVICES}) i`);
  await db.update(servers).set({ maxCapacity: Math.max(100, DEVICES) }).where(eq(servers.id, consoleApp.messaging!.embeddedServerId!));
  const rows = await db.select({ id: devices.id, key: devices.installationKey }).from(devices).where(eq(devices.organizationId, org!.id));
  const { enrolled, brokerUrl } = await enrollAll(consoleApp.url, rows, 16, log);
  const { access_token } = await passwordLogin({ consoleUrl: consoleApp.url, email: MEMBER.email, password: MEMBER.password });
  child.send({ url: consoleApp.url, token: access_token, brokerUrl, devices: enrolled, streams: STREAMS } satisfies LivePlan);

  await phase({ phase: 'devices' });
  const online = async () => Number((await db.execute<{ n: number }>(sql`select count(*)::int as n from devices where online`)).rows[0]!.n);
  for (let i = 0; i < 30 && (await online()) < enrolled.length; i++) await sleep(1000);
  log(`${await online()} of ${enrolled.length} devices online`);
  const { cpu: quietCpu } = await cpuOver(() => settle());
  const before = rssMb();
  const heapBefore = heapMb();
  log(`console RSS before the streams: ${before.toFixed(0)} MB (heap ${heapBefore.toFixed(0)} MB), CPU ${quietCpu.toFixed(1)} % (the devices' heartbeats)`);

  const opened = performance.now();
  await phase({ phase: 'streams' });
  log(`${STREAMS} streams open and ready in ${((performance.now() - opened) / 1000).toFixed(1)} s`);
  const { cpu: idleCpu } = await cpuOver(() => settle());
  const withStreams = rssMb();
  log(
    `console RSS with ${STREAMS} streams open: ${withStreams.toFixed(0)} MB (+${(withStreams - before).toFixed(0)} MB; heap +${(heapMb() - heapBefore).toFixed(1)} MB), CPU idle ${idleCpu.toFixed(1)} %`,
  );

  const { result: live, cpu } = await cpuOver(() => phase<{ latencies: Latencies }>({ phase: 'toggle', seconds: SECONDS, perSecond: TOGGLES }));
  const l = live.latencies;
  log(`live updates: ${fmt(l)}; ${l.missed} changes missed by some stream, ${l.resyncs} resyncs, ${l.closes} streams closed`);
  log(`console CPU while toggling: ${cpu.toFixed(1)} % of a core; RSS ${rssMb().toFixed(0)} MB`);

  // The reference, same run: a bare ws relay in this process (the console idle beside it).
  const relay = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => relay.once('listening', r));
  relay.on('connection', (ws) => ws.on('message', (data) => relay.clients.forEach((c) => c !== ws && c.send(String(data)))));
  const url = `ws://127.0.0.1:${(relay.address() as { port: number }).port}`;
  const { result: ref, cpu: refCpu } = await cpuOver(() => phase<{ latencies: Latencies }>({ phase: 'reference', url, seconds: Math.min(SECONDS, 30), perSecond: TOGGLES }));
  relay.close();
  log(`reference, bare ws relay (no coalescing, no access checks): ${fmt(ref.latencies)}; CPU ${refCpu.toFixed(1)} %`);
  log(
    `ratio console/reference: p50 ${(l.p50 / ref.latencies.p50).toFixed(1)}x, p99 ${(l.p99 / ref.latencies.p99).toFixed(1)}x; ` +
      `targets: p99 < 1000 ms ${l.p99 < 1000 ? 'met' : 'NOT met'}, RSS + < 100 MB for ${STREAMS} streams ${withStreams - before < 100 ? 'met' : 'NOT met'}`,
  );
  await shutdown(0);
} catch (err) {
  console.error(err);
  await shutdown(1);
}
