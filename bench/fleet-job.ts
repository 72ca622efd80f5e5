/**
 * Fleet job benchmark (issue 64): a `ping` job on N simulated devices (bench/fleet-agents.ts answers
 * the command as the agent does) through one console with its embedded broker. Reported: the time
 * from creating the job until every result is in (target: under 60 s for 10,000), the console's CPU
 * meanwhile, and the broker's message rate of the job (requests to the devices and their replies).
 *
 * The reference, measured in the same run on the same fleet: the same N ping commands sent straight
 * through the console's message hub, JOB_CONCURRENCY at a time, with no job, no claim and no result
 * written; the ratio says what the job's bookkeeping costs.
 *
 *   FLEET_N=10000 npx tsx bench/fleet-job.ts
 *   FLEET_N=10000 TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/fleet-job.ts
 *
 * Environment: FLEET_N (1000), JOB_CONCURRENCY (100), FLEET_PROCS (simulator processes, 2),
 * FLEET_CONNECT_RATE (500/s), DATABASE_URL, or TEST_DATABASE_URL (a fresh PostgreSQL database for the run).
 */
import { RequestName, jobSchema } from '@fleetlink/contract';
import { and, count, eq, sql } from 'drizzle-orm';
import { devices, organizationMembers, organizations, servers } from '../apps/server/src/db/schema/index.js';
import { passwordLogin } from '../apps/server/src/idp/password-login.js';
import type { FleetCounters } from './fleet-agents.js';
import { endOnSignalsAndAfter, enrollAll, fleetSettings, log, startBenchConsole, startSimulators } from './fleet-support.js';

const { N, PROCS, ENROLL_CONCURRENCY } = fleetSettings(500);
const CONNECT_RATE = Number(process.env.FLEET_CONNECT_RATE ?? 500);
const CONCURRENCY = Number(process.env.JOB_CONCURRENCY ?? 100);
const ADMIN = { email: 'admin@fleetlink.local', password: 'admin' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const { consoleApp, db, dataDir, children, shutdown, stopping } = await startBenchConsole('job-bench', {
  // Heartbeats and load samples rarely: the job's traffic is what is measured.
  AGENT_HEARTBEAT_SECONDS: '300',
  AGENT_METRICS_SECONDS: '600',
  ENROLL_RATE_LIMIT: String(Math.max(100, N * 2)),
  JOB_CONCURRENCY: String(CONCURRENCY),
});
endOnSignalsAndAfter(N / 10 + 900, shutdown, log);

/** CPU of this process (the console) in % of one core over `fn`, and `fn`'s time. */
async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; seconds: number; cpuPct: number }> {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  return { value, seconds: ms / 1000, cpuPct: ((used.user + used.system) / 1000 / ms) * 100 };
}

try {
  log(`console on ${consoleApp.url} (${consoleApp.database.kind}); N=${N}, JOB_CONCURRENCY ${CONCURRENCY}`);
  const [org] = await db.insert(organizations).values({ type: 'COMPANY', name: 'Job bench' }).returning({ id: organizations.id });
  const orgId = org!.id;
  await db.insert(organizationMembers).values({ organizationId: orgId, email: ADMIN.email, role: 'ADMIN' });
  await db.execute(sql`insert into devices (organization_id, name, installation_key)
    select ${orgId}::uuid, 'job-sim-' || i, md5(random()::text || i) from generate_series(1, ${N}) i`);
  await db.update(servers).set({ maxCapacity: Math.max(100, N) }).where(eq(servers.id, consoleApp.messaging!.embeddedServerId!));
  const rows = await db.select({ id: devices.id, key: devices.installationKey }).from(devices).where(eq(devices.organizationId, orgId));
  const { enrolled, brokerUrl } = await enrollAll(consoleApp.url, rows, ENROLL_CONCURRENCY, log);
  const sims = startSimulators({ url: brokerUrl, heartbeatSeconds: 300, metricsSeconds: 600, connectRate: CONNECT_RATE }, enrolled, PROCS, dataDir, (p, code) => {
    if (!stopping()) log(`simulator ${p} exited with ${code}`);
  });
  children.push(...sims.children);
  const sum = (k: keyof FleetCounters) => sims.counters.reduce((a, c) => a + (c?.[k] ?? 0), 0);
  const online = async () => (await db.select({ n: count() }).from(devices).where(and(eq(devices.organizationId, orgId), eq(devices.online, true))))[0]!.n;
  for (let n = 0; (n = await online()) < enrolled.length; ) {
    log(`  ${n}/${enrolled.length} online`);
    await sleep(2000);
  }
  log(`all ${enrolled.length} online`);
  // Requests the simulators received, read after their next reports (each process reports every
  // second); the console's own liveness pings of quiet devices may add a few.
  const requestsSeen = async (): Promise<number> => {
    await sleep(2500);
    return sum('requests');
  };

  // ---- Reference: the same pings straight through the hub, CONCURRENCY at a time.
  const hub = consoleApp.messaging!.hub;
  const ids = enrolled.map((d) => d.id);
  let refErrors = 0;
  const refStart = await requestsSeen();
  const reference = await measured(async () => {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < ids.length) {
          const id = ids[next++]!;
          await hub.request(id, RequestName.Command, { name: 'ping', parameters: {} }, { timeoutMs: 30_000 }).catch(() => refErrors++);
        }
      }),
    );
  });
  const refSeen = (await requestsSeen()) - refStart;
  log(`reference: ${ids.length} pings through the hub in ${reference.seconds.toFixed(1)} s (${refErrors} errors)`);

  // ---- The job: created through the API, timed until its run ended.
  const { access_token: token } = await passwordLogin({ consoleUrl: consoleApp.url, email: ADMIN.email, password: ADMIN.password });
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${consoleApp.url}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const jobStart = await requestsSeen();
  const job = await measured(async () => {
    const created = jobSchema.parse(await api('POST', '/api/jobs', { command: { name: 'ping', parameters: [] }, target: { kind: 'organization', organizationId: orgId } }));
    for (;;) {
      await sleep(250);
      const j = jobSchema.parse(await api('GET', `/api/jobs/${created.id}`));
      const run = j.runs[0];
      if (run && run.state !== 'running') return run;
    }
  });
  const jobSeen = (await requestsSeen()) - jobStart;
  // One request to each device and its one reply.
  const jobMessages = 2 * job.value.total;
  const run = job.value;

  console.log('\n==== fleet job ====');
  console.log(`devices: ${N} simulated, online; database ${consoleApp.database.kind}; JOB_CONCURRENCY ${CONCURRENCY}`);
  console.log(`job 'ping' on ${run.total} devices: every result in after ${job.seconds.toFixed(1)} s (target < 60 s); ${run.counts.succeeded} succeeded, ${run.counts.failed} failed`);
  console.log(`  console CPU ${job.cpuPct.toFixed(0)} % of one core; broker messages of the job ${jobMessages} (${(jobMessages / job.seconds).toFixed(0)}/s); requests the simulated devices saw meanwhile: ${jobSeen}`);
  console.log(`reference (hub only, no job): ${reference.seconds.toFixed(1)} s, console CPU ${reference.cpuPct.toFixed(0)} %, ${2 * ids.length} messages (${((2 * ids.length) / reference.seconds).toFixed(0)}/s), ${refErrors} errors; requests the devices saw: ${refSeen}`);
  console.log(`ratio job / reference: ${(job.seconds / reference.seconds).toFixed(2)}× the time`);
  await shutdown(0);
} catch (err) {
  console.error(err);
  await shutdown(1);
}
