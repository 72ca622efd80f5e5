import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv, type Env } from '../apps/server/src/env.js';
import { passwordLogin } from '../apps/server/src/idp/password-login.js';
import { startConsole } from '../apps/server/src/console.js';
import { createTestDatabase, freePort } from '../apps/server/src/testing/test-console.js';
import type { FleetCounters, FleetPlan } from './fleet-agents.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Every device enrolled through `consoleUrl`'s enrollment API, `concurrency` at a time, as each
 * agent's first run does, each with the message server its answer names. An answer that asks to
 * wait (429 or 503 with Retry-After) is obeyed, as the agent obeys it, and the device tries again;
 * other refusals are counted, the first ones logged.
 */
export async function enrollAll(
  consoleUrl: string,
  rows: { id: string; key: string }[],
  concurrency: number,
  log: (msg: string) => void,
): Promise<{ enrolled: FleetPlan['devices']; refused: number; waits: number; seconds: number; brokerUrl: string }> {
  const t0 = performance.now();
  const enrolled: FleetPlan['devices'] = [];
  let brokerUrl = '';
  let cursor = 0;
  let refused = 0;
  let waits = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (cursor < rows.length) {
        const d = rows[cursor++]!;
        for (;;) {
          let res: Response;
          try {
            res = await fetch(`${consoleUrl}/api/agent/enroll`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ deviceId: d.id, key: d.key, agent: { version: 'fleet-sim', hostname: 'sim' } }),
            });
          } catch (err) {
            // As the agent does: a connection that failed (a kept-alive one the balancer closed as
            // it was reused: ECONNRESET) is tried again after a while, not the end of the run.
            if (failures++ < 3) log(`enrollment failed, tried again: ${(err as Error).message} (${((err as Error).cause as Error | undefined)?.message ?? ''})`);
            await new Promise((r) => setTimeout(r, 1000));
            continue;
          }
          const body = (await res.json()) as { mqtt?: { username: string; password: string }; servers?: { type: string; url: string }[]; message?: string };
          const retryAfter = Number(res.headers.get('retry-after'));
          if ((res.status === 429 || res.status === 503) && retryAfter > 0) {
            if (waits++ < 3) log(`enrollment asked to wait: HTTP ${res.status} ${body.message}`);
            await new Promise((r) => setTimeout(r, Math.min(retryAfter, 120) * 1000));
            continue;
          }
          if (!res.ok || !body.mqtt) {
            if (refused++ < 3) log(`enrollment refused: HTTP ${res.status} ${body.message}`);
            break;
          }
          const url = body.servers!.find((s) => s.type === 'MESSAGE')!.url;
          brokerUrl ||= url;
          enrolled.push({ id: d.id, username: body.mqtt.username, password: body.mqtt.password, url });
          if (enrolled.length % 1000 === 0) log(`  ${enrolled.length} enrolled (${(enrolled.length / ((performance.now() - t0) / 1000)).toFixed(0)}/s)`);
          break;
        }
      }
    }),
  );
  return { enrolled, refused, waits, seconds: (performance.now() - t0) / 1000, brokerUrl };
}

const SIM_NICE = Number(process.env.FLEET_SIM_NICE ?? 0);

/**
 * `procs` simulator processes (fleet-agents.ts), the devices dealt out among them; their counters
 * arrive in `counters` (one entry per process) as they report.
 */
export function startSimulators(
  plan: Omit<FleetPlan, 'devices' | 'connectRate'> & { connectRate: number },
  devices: FleetPlan['devices'],
  procs: number,
  workDir: string,
  onExit: (p: number, code: number | null) => void,
): { children: ChildProcess[]; counters: FleetCounters[] } {
  const counters: FleetCounters[] = [];
  const children: ChildProcess[] = [];
  for (let p = 0; p < procs; p++) {
    const planFile = path.join(workDir, `plan-${p}.json`);
    writeFileSync(planFile, JSON.stringify({ ...plan, connectRate: plan.connectRate / procs, devices: devices.filter((_, i) => i % procs === p) } satisfies FleetPlan));
    const child = fork(path.join(here, 'fleet-agents.ts'), [planFile], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    // FLEET_SIM_NICE=10: the simulated devices yield the CPU to the console, PostgreSQL and Mosquitto.
    // Real devices run elsewhere; here 50,000 of them share the console's two cores.
    if (SIM_NICE && child.pid) setPriority(child.pid, SIM_NICE);
    child.on('message', (m: { type: string; counters: FleetCounters }) => {
      if (m.type === 'counters') counters[p] = m.counters;
    });
    child.on('exit', (code) => onExit(p, code));
    children.push(child);
  }
  return { children, counters };
}

/** The run ends whatever happens: on Ctrl-C or SIGTERM, and at its hard time limit. */
export function endOnSignalsAndAfter(limitSeconds: number, shutdown: (code: number) => Promise<void>, log: (msg: string) => void): void {
  process.on('SIGINT', () => void shutdown(130));
  process.on('SIGTERM', () => void shutdown(143));
  setTimeout(() => {
    log('hard time limit reached, stopping');
    void shutdown(1);
  }, limitSeconds * 1000).unref();
}

/** Ends every simulator still running (SIGTERM: a clean goodbye) and waits for them. */
export async function stopChildren(children: ChildProcess[]): Promise<void> {
  // One killed by a signal has a signalCode and no exitCode.
  const running = children.filter((c) => c.exitCode === null && c.signalCode === null);
  const exited = running.map((c) => new Promise((r) => c.once('exit', r)));
  running.forEach((c) => c.kill('SIGTERM'));
  await Promise.all(exited);
}

/** The fleet's settings from the environment (fleet-sim.ts's header lists them). */
export function fleetSettings(defaultConnectRate: number) {
  return {
    N: Number(process.env.FLEET_N ?? 1000),
    SECONDS: Number(process.env.FLEET_SECONDS ?? 120),
    HEARTBEAT: Number(process.env.FLEET_HEARTBEAT_SECONDS ?? 30),
    METRICS: Number(process.env.FLEET_METRICS_SECONDS ?? 60),
    CONNECT_RATE: Number(process.env.FLEET_CONNECT_RATE ?? defaultConnectRate),
    PROCS: Math.max(1, Number(process.env.FLEET_PROCS ?? 2)),
    ENROLL_CONCURRENCY: Number(process.env.FLEET_ENROLL_CONCURRENCY ?? 16),
  };
}

/** A log line with the time of day. */
export const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

/** A console of a bench run: on free ports of 127.0.0.1 with its embedded broker, quiet logs, and `extra` over that. */
export async function benchConsoleEnv(dataDir: string, extra: Record<string, string>): Promise<Env> {
  const port = await freePort();
  return parseEnv({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    MQTT_EMBEDDED_PORT: String(await freePort()),
    MQTT_EMBEDDED_HOST: '127.0.0.1',
    ...extra,
  });
}

/**
 * A console in this process for a bench run (its CPU and memory are this process's), with its
 * embedded broker: on PGlite in a temp folder, on DATABASE_URL, or on a fresh database of
 * TEST_DATABASE_URL's server dropped at the end. `shutdown` stops the simulators in `children`, the
 * console, and removes what the run made; a second call (a signal while one hangs) leaves at once.
 */
export async function startBenchConsole(name: string, extra: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `fleetlink-${name}-`));
  const fresh = process.env.DATABASE_URL ? undefined : await createTestDatabase(`fleetlink_${name.replace(/-/g, '_')}`);
  const databaseUrl = process.env.DATABASE_URL ?? fresh?.url;
  const env = await benchConsoleEnv(dataDir, { ...extra, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  const consoleApp = await startConsole(env, { webDist: path.join(dataDir, 'no-spa') });
  const children: ChildProcess[] = [];
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) process.exit(code);
    stopping = true;
    await stopChildren(children);
    await consoleApp.close().catch(() => {});
    await fresh?.drop().catch((err: Error) => console.error(`could not drop the bench database: ${err.message}`));
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(code);
  };
  return { consoleApp, db: consoleApp.database.db, dataDir, children, shutdown, stopping: () => stopping };
}

/** A person's token at `consoleUrl`, signed in again shortly before it expires (a long run outlives one). */
export function tokenFor(consoleUrl: string, who: { email: string; password: string }): () => Promise<string> {
  let token = '';
  let until = 0;
  return async () => {
    if (Date.now() < until) return token;
    const t = await passwordLogin({ consoleUrl, ...who });
    token = t.access_token;
    until = Date.now() + (t.expires_in - 30) * 1000;
    return token;
  };
}

/**
 * Asks `pathOf(i)` of `base` (with `token()` when given), the i-th time, every second until stopped,
 * each request with a 10 s deadline: the time and body of each answer that is a 2xx go to `record`,
 * every other answer and failure is counted.
 */
export function everySecond(o: { base: string; pathOf: (i: number) => string; token?: () => Promise<string>; record: (ms: number, body: string) => void }) {
  let running = true;
  let failed = 0;
  const done = (async () => {
    for (let i = 0; running; i++) {
      const started = performance.now();
      try {
        const headers: Record<string, string> = o.token ? { authorization: `Bearer ${await o.token()}` } : {};
        const res = await fetch(`${o.base}${o.pathOf(i)}`, { headers, signal: AbortSignal.timeout(10_000) });
        const body = await res.text();
        if (res.ok) o.record(performance.now() - started, body);
        else failed++;
      } catch {
        failed++;
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  return {
    failed: () => failed,
    async stop() {
      running = false;
      await done;
    },
  };
}
