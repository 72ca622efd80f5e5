/**
 * Faults under load (issue 67): two consoles behind a round-robin balancer, one PostgreSQL, one
 * Mosquitto, a standalone tunnel proxy, FAULT_DEVICES simulated devices and FAULT_AGENTS real
 * installed agents (the shell launcher and a packed bundle), while commands go to the real agents
 * every half second, files are uploaded to one of them, and HTTP requests go through a PERMANENT
 * tunnel every 200 ms. Then each part in turn is killed with SIGKILL and started again after
 * FAULT_OUTAGE_SECONDS: one console, Mosquitto, PostgreSQL, the proxy, a real agent (its launcher
 * starts it again by itself). Printed for each: how long after the restart every device was back
 * (online, and heard from since), when the tunnel served again, the commands answered, refused with
 * a message, cut off (the balancer's connection to a console that died) or hung, and the tunnel
 * requests that failed. At the end: audit entries of acknowledged commands (expected vs found),
 * uploads (complete with the right SHA-256, or failed with a message), the EPHEMERAL tunnel (shown
 * disconnected), and the verdict. Everything listens on 127.0.0.1; the run stops by itself.
 *
 *   npx tsx bench/faults.ts
 *   FAULT_DEVICES=200 FAULT_AGENTS=3 FAULT_OUTAGE_SECONDS=3 FAULT_RECOVERY_SECONDS=30 npx tsx bench/faults.ts
 *
 * Needs PostgreSQL's server binaries (initdb and postgres: PG_BIN, or /usr/lib/postgresql/<v>/bin;
 * as root they run as the postgres user) and Mosquitto (MOSQUITTO_BIN, or mosquitto on the PATH):
 * both are started here, privately, so killing them touches nothing else on the machine.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import { passwordLogin } from '../apps/server/src/idp/password-login.js';
import { agentPidUnder, mosquittoBin, startMosquitto, tempDir, type AgentProcess } from '../apps/server/src/modules/broker/broker.test-support.js';
import { packAgentBundle } from '../apps/server/src/modules/releases/bundle-archives.test-support.js';
import { installBundle, runInstalled } from '../apps/server/src/modules/releases/installed-agent.test-support.js';
import { startBalancer } from '../apps/server/src/testing/balancer.test-support.js';
import { startConsoleProcess, type ConsoleProcess } from '../apps/server/src/testing/console-process.test-support.js';
import { freePort } from '../apps/server/src/testing/test-console.js';
import { startLocalService } from '../apps/server/src/modules/tunnels/local-service.test-support.js';
import { hostKeyFile, startStandaloneProxy, type StandaloneProxy } from '../apps/server/src/modules/tunnels/standalone-proxy.test-support.js';
import { endOnSignalsAndAfter, enrollAll, log, startSimulators, stopChildren } from './fleet-support.js';
import { percentile } from './percentile.js';

const DEVICES = Number(process.env.FAULT_DEVICES ?? 200);
const AGENTS = Number(process.env.FAULT_AGENTS ?? 3);
const OUTAGE_MS = Number(process.env.FAULT_OUTAGE_SECONDS ?? 3) * 1000;
const RECOVERY_MS = Number(process.env.FAULT_RECOVERY_SECONDS ?? 30) * 1000;
/** A command not answered in this long has hung: the console's own deadline for a ping is far shorter. */
const HUNG_MS = 90_000;
const HEARTBEAT_SECONDS = 5;
const DOMAIN = 'faults.test';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- A private PostgreSQL, killed and restarted by this run only.
function pgBin(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  const version = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a))[0] : undefined;
  return version && existsSync(`${base}/${version}/bin/postgres`) ? `${base}/${version}/bin` : undefined;
}

async function privatePostgres(bin: string) {
  const dir = tempDir('fleetlink-faults-pg-');
  const root = process.getuid?.() === 0;
  // PostgreSQL refuses to run as root: as root, as the postgres user, in a folder it owns.
  if (root) execFileSync('chown', ['-R', 'postgres', dir]);
  const run = (cmd: string, args: string[]) => (root ? { cmd: 'runuser', args: ['-u', 'postgres', '--', cmd, ...args] } : { cmd, args });
  const init = run(`${bin}/initdb`, ['-D', `${dir}/data`, '-A', 'trust', '-U', 'postgres']);
  execFileSync(init.cmd, init.args, { stdio: 'ignore' });
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let child: ChildProcess | undefined;
  const ready = async () => {
    for (let i = 0; i < 200; i++) {
      const c = new pg.Client({ connectionString: url });
      try {
        await c.connect();
        await c.end();
        return;
      } catch {
        await c.end().catch(() => {});
        await sleep(100);
      }
    }
    throw new Error('the private PostgreSQL did not start');
  };
  const db = {
    url,
    async start() {
      // A postmaster killed a moment ago may leave backends ending: the new one waits for them.
      for (let tries = 0; ; tries++) {
        const p = run(`${bin}/postgres`, ['-D', `${dir}/data`, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200']);
        child = spawn(p.cmd, p.args, { stdio: 'ignore' });
        try {
          await ready();
          return;
        } catch (err) {
          if (tries >= 5) throw err;
        }
      }
    },
    /** kill -9 of the postmaster itself (runuser is only its parent). */
    kill() {
      const pid = Number(readFileSync(`${dir}/data/postmaster.pid`, 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGKILL');
    },
    async dispose() {
      try {
        db.kill();
      } catch {
        // not running
      }
      child?.kill('SIGKILL');
      await sleep(500);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await db.start();
  return db;
}

// ---- What the load saw, with the time of each outcome, so each outage gets its own figures.
type CommandOutcome = 'answered' | 'refused' | 'cut off' | 'hung';
const commands: { at: number; outcome: CommandOutcome; device: string; message?: string }[] = [];
const tunnelRequests: { at: number; ok: boolean }[] = [];
const uploads: { at: number; outcome: 'complete' | 'wrong content' | 'failed with a message' | 'cut off' | 'hung'; message?: string }[] = [];

const bin = process.env.MOSQUITTO_BIN ?? mosquittoBin();
const pgBinDir = pgBin();
if (!bin || !pgBinDir) {
  console.error('bench/faults.ts needs Mosquitto (MOSQUITTO_BIN or mosquitto on the PATH) and PostgreSQL\'s server binaries (PG_BIN, or /usr/lib/postgresql/<version>/bin).');
  process.exit(2);
}

const work = tempDir('fleetlink-faults-');
const database = await privatePostgres(pgBinDir);
const mosquitto = await startMosquitto(bin, await freePort());
const lb = await startBalancer();
const ports = [await freePort(), await freePort()];
const metricsPorts = [await freePort(), await freePort()];
const dataDirs = ports.map(() => tempDir('fleetlink-faults-console-'));
const shared = {
  DATABASE_URL: database.url,
  PUBLIC_URL: lb.url,
  SECRET_KEY: 'faults-bench-secret-key-0123456789abcdef',
  HOST: '127.0.0.1',
  MQTT_EMBEDDED_PORT: '0',
  TUNNEL_SSH_PORT: '0',
  BLOB_DIR: path.join(work, 'blobs'),
  AGENT_HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS),
  ENROLL_RATE_LIMIT: String(DEVICES * 4),
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
};
const consoleEnv = (i: number) => ({ ...shared, PORT: String(ports[i]), DATA_DIR: dataDirs[i]!, METRICS_PORT: String(metricsPorts[i]) });
const consoles: (ConsoleProcess | undefined)[] = [];
const children: ChildProcess[] = [];
const agents: AgentProcess[] = [];
let proxy: StandaloneProxy | undefined;
let stopping = false;

async function shutdown(code: number) {
  if (stopping) process.exit(code);
  stopping = true;
  for (const a of agents) await a.kill().catch(() => {});
  await stopChildren(children).catch(() => {});
  await proxy?.stop().catch(() => {});
  await Promise.all(consoles.map((c) => c?.kill('SIGTERM')));
  await Promise.all([mosquitto.dispose(), lb.close(), database.dispose()]).catch(() => {});
  [work, ...dataDirs].forEach((d) => rmSync(d, { recursive: true, force: true }));
  process.exit(code);
}
endOnSignalsAndAfter(30 * 60, shutdown, log);

try {
  consoles.push(...(await Promise.all(ports.map((_, i) => startConsoleProcess(consoleEnv(i))))));
  lb.backends = [...ports];
  const admin = (await passwordLogin({ consoleUrl: lb.url, email: 'admin@fleetlink.local', password: 'admin' })).access_token;
  let adminToken = admin;
  const api = (pathname: string, init: RequestInit & { json?: unknown } = {}) => {
    const { json, ...rest } = init;
    return fetch(`${lb.url}${pathname}`, {
      ...rest,
      headers: { authorization: `Bearer ${adminToken}`, ...(json !== undefined ? { 'content-type': 'application/json' } : {}), ...rest.headers },
      body: json !== undefined ? JSON.stringify(json) : rest.body,
    });
  };
  // Tokens last five minutes; the run is longer.
  setInterval(() => void passwordLogin({ consoleUrl: lb.url, email: 'admin@fleetlink.local', password: 'admin' }).then((t) => (adminToken = t.access_token), () => {}), 120_000).unref();
  const created = async (res: Response, what: string) => {
    if (res.status !== 201 && res.status !== 200) throw new Error(`${what} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { id: string };
  };
  await created(
    await api('/api/server', { method: 'POST', json: { type: 'MESSAGE', url: mosquitto.url, maxCapacity: DEVICES * 2, status: 'ONLINE', username: mosquitto.admin.username, password: mosquitto.admin.password, blobBaseUrl: lb.url } }),
    'registering Mosquitto',
  );
  const key = hostKeyFile(work);
  const proxyPassword = randomBytes(12).toString('hex');
  const proxyPorts = { ssh: await freePort(), http: await freePort(), tcp: await freePort(), metrics: await freePort() };
  const proxyServer = await created(
    await api('/api/server', { method: 'POST', json: { type: 'PROXY', url: `ssh://127.0.0.1:${proxyPorts.ssh}`, maxCapacity: DEVICES * 2, status: 'ONLINE', username: 'proxy', password: proxyPassword, hostKey: key.publicKey } }),
    'registering the proxy',
  );
  const proxyEnv = {
    FLEETLINK_CONSOLE_URL: lb.url,
    PROXY_SERVER_ID: proxyServer.id,
    PROXY_PASSWORD: proxyPassword,
    PROXY_HOST_KEY_FILE: key.file,
    PROXY_SSH_HOST: '127.0.0.1',
    PROXY_SSH_PORT: String(proxyPorts.ssh),
    PROXY_HTTP_HOST: '127.0.0.1',
    PROXY_HTTP_PORT: String(proxyPorts.http),
    PROXY_TCP_HOST: '127.0.0.1',
    PROXY_TCP_PORTS: String(proxyPorts.tcp),
    PROXY_DOMAIN: DOMAIN,
    PROXY_METRICS_PORT: String(proxyPorts.metrics),
  };
  proxy = await startStandaloneProxy(proxyEnv);
  for (let i = 0; i < 2; i++) {
    for (let tries = 0; ; tries++) {
      const servers = (await (await fetch(`http://127.0.0.1:${ports[i]}/api/servers`, { headers: { authorization: `Bearer ${admin}` } })).json()) as { type: string; connection?: { state: string } }[];
      if (servers.some((s) => s.type === 'MESSAGE' && s.connection?.state === 'CONNECTED')) break;
      if (tries > 100) throw new Error(`console ${i + 1} did not connect to Mosquitto`);
      await sleep(200);
    }
  }
  log(`2 consoles on ${lb.url} (ports ${ports.join(', ')}), a private PostgreSQL, Mosquitto ${mosquitto.url}, a standalone proxy (SSH ${proxyPorts.ssh}, HTTP ${proxyPorts.http})`);

  // ---- Devices: simulated ones and real installed agents, all enrolled through the balancer.
  const sql = new pg.Pool({ connectionString: database.url, max: 2 });
  sql.on('error', () => {});
  const org = (await sql.query<{ id: string }>(`insert into organizations (type, name) values ('COMPANY', 'Faults') returning id`)).rows[0]!.id;
  await sql.query(`insert into organization_members (organization_id, email, role) values ($1, 'admin@fleetlink.local', 'ADMIN')`, [org]);
  await sql.query(`insert into devices (organization_id, name, installation_key) select $1::uuid, 'sim-' || i, md5(random()::text || i) from generate_series(1, $2::int) i`, [org, DEVICES]);
  const rows = (await sql.query<{ id: string; key: string }>(`select id, installation_key as key from devices where organization_id = $1`, [org])).rows;
  const { enrolled } = await enrollAll(lb.url, rows, 16, log);
  const sims = startSimulators({ url: mosquitto.url, heartbeatSeconds: HEARTBEAT_SECONDS, metricsSeconds: 60, connectRate: 100 }, enrolled, 1, work, (p, code) => {
    if (!stopping) log(`simulator ${p} exited with ${code}`);
  });
  children.push(...sims.children);

  const bundle = packAgentBundle('1.0.0', work);
  const real: { id: string; home: string; agent: AgentProcess }[] = [];
  for (let i = 0; i < AGENTS; i++) {
    const { rows: made } = await sql.query<{ id: string; key: string }>(
      `insert into devices (organization_id, name, installation_key) values ($1, $2, md5(random()::text)) returning id, installation_key as key`,
      [org, `real-${i}`],
    );
    const home = tempDir('fleetlink-faults-agent-');
    await installBundle(home, bundle, '1.0.0');
    const agent = runInstalled(home, { server: lb.url, device: made[0]!.id, key: made[0]!.key, env: { FLEETLINK_AGENT_MAX_BACKOFF_MS: '30000' } });
    agents.push(agent);
    real.push({ id: made[0]!.id, home, agent });
  }
  const total = enrolled.length + AGENTS;
  const onlineCount = async (since?: Date) =>
    Number(
      (await sql.query(`select count(*) from devices where organization_id = $1 and online and ($2::timestamptz is null or last_response > $2)`, [org, since ?? null])).rows[0]
        .count,
    );
  for (let t = 0; (await onlineCount()) < total; t++) {
    if (t > 240) throw new Error(`only ${await onlineCount()} of ${total} devices came online`);
    await sleep(500);
  }
  log(`${total} devices online (${enrolled.length} simulated, ${AGENTS} real agents)`);

  // ---- A PERMANENT tunnel (HTTP traffic goes through it all along) and an EPHEMERAL one.
  const service = await startLocalService('Served through the faults');
  const other = await startLocalService('Ephemeral');
  const lasting = await created(await api(`/api/device/${real[0]!.id}/tunnel`, { method: 'POST', json: { port: service.port, path: 'lasting', mode: 'PERMANENT' } }), 'the PERMANENT tunnel');
  const ephemeral = await created(await api(`/api/device/${real[1 % AGENTS]!.id}/tunnel`, { method: 'POST', json: { port: other.port, path: 'passing', mode: 'EPHEMERAL' } }), 'the EPHEMERAL tunnel');
  for (const [device, t] of [[real[0]!.id, lasting], [real[1 % AGENTS]!.id, ephemeral]] as const) {
    const res = await api(`/api/device/${device}/tunnel/${t.id}/start`, { method: 'POST' });
    if (res.status !== 200) throw new Error(`starting a tunnel answered ${res.status}: ${await res.text()}`);
  }
  const viaTunnel = (host: string) =>
    new Promise<boolean>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port: proxyPorts.http, path: '/', headers: { host: `${host}.${DOMAIN}:${proxyPorts.http}` }, timeout: 5000 }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200));
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(false));
      req.end();
    });

  // ---- The load, until the run ends.
  let loadRunning = true;
  const pending = new Set<Promise<void>>();
  const command = (device: string) => {
    const p = api(`/api/device/${device}/command`, { method: 'POST', json: { name: 'ping', parameters: [] }, signal: AbortSignal.timeout(HUNG_MS) }).then(
      async (res) => {
        const body = (await res.json().catch(() => ({}))) as { message?: string };
        commands.push({ at: Date.now(), device, outcome: res.status === 200 ? 'answered' : 'refused', message: res.status === 200 ? undefined : `${res.status} ${body.message}` });
      },
      (err: Error) => void commands.push({ at: Date.now(), device, outcome: err.name === 'TimeoutError' ? 'hung' : 'cut off', message: err.message }),
    );
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };
  const commandLoop = (async () => {
    while (loadRunning) {
      for (const r of real) command(r.id);
      await sleep(500);
    }
  })();
  const tunnelLoop = (async () => {
    while (loadRunning) {
      tunnelRequests.push({ at: Date.now(), ok: await viaTunnel('lasting') });
      await sleep(200);
    }
  })();
  const uploadDir = tempDir('fleetlink-faults-uploads-');
  const uploadLoop = (async () => {
    for (let n = 0; loadRunning; n++) {
      const content = randomBytes(4 * 1024 * 1024);
      const name = `upload-${n}.bin`;
      const form = new FormData();
      form.append('path', uploadDir);
      form.append('overwrite', 'true');
      form.append('file', new Blob([content]), name);
      try {
        const res = await api(`/api/upload/${real[AGENTS - 1]!.id}`, { method: 'POST', body: form, signal: AbortSignal.timeout(HUNG_MS) });
        if (res.ok) {
          const onDevice = path.join(uploadDir, name);
          const same = existsSync(onDevice) && createHash('sha256').update(readFileSync(onDevice)).digest('hex') === createHash('sha256').update(content).digest('hex');
          uploads.push({ at: Date.now(), outcome: same ? 'complete' : 'wrong content' });
          rmSync(onDevice, { force: true });
        } else {
          uploads.push({ at: Date.now(), outcome: 'failed with a message', message: `${res.status} ${((await res.json().catch(() => ({}))) as { message?: string }).message}` });
        }
      } catch (err) {
        uploads.push({ at: Date.now(), outcome: (err as Error).name === 'TimeoutError' ? 'hung' : 'cut off', message: (err as Error).message });
      }
      await sleep(1000);
    }
  })();
  await sleep(5000);
  log('load running: commands to the real agents every 0.5 s, 4 MB uploads one after another, HTTP through the tunnel every 0.2 s');

  // ---- Each part in turn: kill -9, an outage, a restart, the recovery measured.
  interface Phase {
    part: string;
    killedAt: number;
    restartedAt: number;
    allBackMs?: number;
    tunnelBackMs?: number;
  }
  const phases: Phase[] = [];
  const recover = async (phase: Phase, only?: string[]) => {
    const since = new Date(phase.restartedAt);
    const deadline = phase.restartedAt + Math.max(RECOVERY_MS, 60_000);
    while (Date.now() < deadline && (phase.allBackMs === undefined || phase.tunnelBackMs === undefined)) {
      if (phase.allBackMs === undefined) {
        const back = only
          ? Number((await sql.query(`select count(*) from devices where id = any($1) and online and last_response > $2`, [only, since]).catch(() => ({ rows: [{ count: 0 }] }))).rows[0].count) === only.length
          : (await onlineCount(since).catch(() => 0)) >= total;
        if (back) phase.allBackMs = Date.now() - phase.restartedAt;
      }
      if (phase.tunnelBackMs === undefined) {
        const ok = tunnelRequests.find((r) => r.at > phase.restartedAt && r.ok);
        if (ok) phase.tunnelBackMs = Math.max(0, ok.at - phase.restartedAt);
      }
      await sleep(250);
    }
    log(`  ${phase.part}: every device back ${phase.allBackMs === undefined ? 'NOT within the deadline' : `${(phase.allBackMs / 1000).toFixed(1)} s`} after the restart; the tunnel serving ${phase.tunnelBackMs === undefined ? 'NOT again' : `${(phase.tunnelBackMs / 1000).toFixed(1)} s`} after it`);
  };
  /** A ping job to every device of the fleet, asked for right after each kill (retried while the console cannot take it). */
  const jobs: { part: string; id: string }[] = [];
  const startJob = async (part: string) => {
    for (let tries = 0; tries < 60; tries++) {
      const res = await api('/api/jobs', { method: 'POST', json: { command: { name: 'ping', parameters: [] }, target: { kind: 'organization', organizationId: org } } }).catch(() => undefined);
      if (res?.status === 201) return void jobs.push({ part, id: ((await res.json()) as { id: string }).id });
      await sleep(500);
    }
    log(`  a job could not be made after the kill of ${part}`);
  };
  const kill = async (part: string, doKill: () => Promise<void> | void, restart: () => Promise<void>, only?: string[]) => {
    log(`kill -9: ${part}`);
    const phase: Phase = { part, killedAt: Date.now(), restartedAt: 0 };
    await doKill();
    // Made during the outage (or as soon as a console takes it): it must end with every device answered once.
    const job = startJob(part);
    await sleep(OUTAGE_MS);
    await restart();
    phase.restartedAt = Date.now();
    phases.push(phase);
    await recover(phase, only);
    await job;
    await sleep(5000);
  };

  await kill(
    'console 1',
    async () => {
      // The balancer's health check takes it out (as a real one would within seconds).
      lb.backends = [ports[1]!];
      await consoles[0]!.kill('SIGKILL');
    },
    async () => {
      consoles[0] = await startConsoleProcess(consoleEnv(0));
      lb.backends = [...ports];
    },
  );
  await kill('Mosquitto', () => mosquitto.stop('SIGKILL'), () => mosquitto.start());
  await kill('PostgreSQL', () => database.kill(), () => database.start());
  await kill(
    'the proxy',
    () =>
      new Promise<void>((resolve) => {
        proxy!.child.once('exit', () => resolve());
        proxy!.child.kill('SIGKILL');
      }),
    async () => {
      proxy = await startStandaloneProxy(proxyEnv);
    },
  );
  const victim = real[0]!;
  await kill(
    'a real agent (its launcher restarts it)',
    async () => {
      process.kill(agentPidUnder(victim.agent.child.pid!)!, 'SIGKILL');
    },
    async () => {
      // Its launcher's restart, not ours: the outage is its backoff.
      for (let i = 0; i < 100 && !agentPidUnder(victim.agent.child.pid!); i++) await sleep(100);
    },
    [victim.id],
  );

  // ---- The end of the load; every command settles (or hangs) first.
  loadRunning = false;
  await Promise.all([commandLoop, tunnelLoop, uploadLoop]);
  await Promise.all(pending);
 // Every job ends: each device answered once (one result row per device and run), none left waiting.
  const jobLines: string[] = [];
  let jobsOk = true;
  for (const j of jobs) {
    let run: { state: string; total: number; counts: Record<string, number> } | undefined;
    for (let i = 0; i < 120; i++) {
      const body = (await (await api(`/api/jobs/${j.id}`)).json()) as { runs: { state: string; total: number; counts: Record<string, number> }[] };
      run = body.runs[0];
      if (run && run.state !== 'running') break;
      await sleep(500);
    }
    const twice = Number(
      (await sql.query(`select count(*) from (select device_id from job_results r join job_runs u on u.id = r.run_id where u.job_id = $1 group by r.run_id, device_id having count(*) > 1) d`, [j.id])).rows[0].count,
    );
    const counts = Object.entries(run?.counts ?? {}).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ');
    // Failed is an answer (a device whose agent died as it was asked is told so); waiting for ever is not.
    jobsOk &&= run?.state === 'finished' && twice === 0 && !run.counts.queued && !run.counts.running;
    jobLines.push(`  made after the kill of ${j.part}: run ${run?.state ?? 'none'}, ${run?.total ?? 0} devices: ${counts}; results written twice: ${twice}`);
  }
  const ephemeralState = ((await (await api(`/api/device/${real[1 % AGENTS]!.id}/tunnel/${ephemeral.id}`)).json()) as { status: { state: string } }).status.state;
  const answered = commands.filter((c) => c.outcome === 'answered');
  const audited = Number(
    (await sql.query(`select count(*) from audit_entries where kind = 'command' and outcome = 'ok' and device_id = any($1) and details->>'jobId' is null`, [real.map((r) => r.id)])).rows[0].count,
  );
  await sql.end();

  console.log('\n==== faults under load ====');
  console.log(`2 consoles, PostgreSQL, Mosquitto, a standalone proxy; ${enrolled.length} simulated devices + ${AGENTS} real agents; each part killed with SIGKILL, started again ${OUTAGE_MS / 1000} s later`);
  const counts = (from: number, to: number) => {
    const inWindow = commands.filter((c) => c.at >= from && c.at < to);
    const by = (o: CommandOutcome) => inWindow.filter((c) => c.outcome === o).length;
    const t = tunnelRequests.filter((r) => r.at >= from && r.at < to);
    const u = uploads.filter((x) => x.at >= from && x.at < to);
    const uploaded = u.length ? `; uploads ${u.map((x) => x.outcome).join(', ')}` : '';
    return `commands answered ${by('answered')}, refused with a message ${by('refused')}, cut off ${by('cut off')}, hung ${by('hung')}; tunnel requests failed ${t.filter((r) => !r.ok).length} of ${t.length}${uploaded}`;
  };
  phases.forEach((p, i) => {
    const end = phases[i + 1]?.killedAt ?? Date.now();
    console.log(
      `${p.part.padEnd(42)} back after the restart: devices ${p.allBackMs === undefined ? 'NOT' : `${(p.allBackMs / 1000).toFixed(1)} s`}, tunnel ${p.tunnelBackMs === undefined ? 'NOT' : `${(p.tunnelBackMs / 1000).toFixed(1)} s`}; ${counts(p.killedAt, end)}`,
    );
  });
  const refusals = [...new Set(commands.filter((c) => c.outcome !== 'answered').map((c) => c.message))].slice(0, 6);
  if (refusals.length) console.log(`what the failed commands were told (first kinds): ${refusals.join(' | ')}`);
  const latencies = tunnelRequests.filter((r) => r.ok).length;
  console.log(`tunnel requests: ${latencies} served of ${tunnelRequests.length}`);
  const upBy = (o: (typeof uploads)[number]['outcome']) => uploads.filter((u) => u.outcome === o).length;
  console.log(`uploads: ${uploads.length}: complete with the right SHA-256 ${upBy('complete')}, wrong content ${upBy('wrong content')}, failed with a message ${upBy('failed with a message')}, cut off ${upBy('cut off')}, hung ${upBy('hung')}`);
  const uploadMessages = [...new Set(uploads.filter((u) => u.message).map((u) => u.message))].slice(0, 4);
  if (uploadMessages.length) console.log(`what the failed uploads were told: ${uploadMessages.join(' | ')}`);
  console.log(`audit: ${answered.length} commands acknowledged to their caller, ${audited} audit entries of answered commands found (${audited >= answered.length ? 'none lost' : `${answered.length - audited} LOST`})`);
  console.log(`the EPHEMERAL tunnel after the proxy's restart: ${ephemeralState}`);
  console.log(`ping jobs to all ${total} devices, one made at each kill:\n${jobLines.join('\n')}`);
  const hung = commands.filter((c) => c.outcome === 'hung').length;
  const recovered = phases.every((p) => p.allBackMs !== undefined && p.allBackMs <= RECOVERY_MS && p.tunnelBackMs !== undefined && p.tunnelBackMs <= RECOVERY_MS);
  const ok = recovered && jobsOk && hung === 0 && upBy('hung') === 0 && audited >= answered.length && upBy('wrong content') === 0 && ephemeralState === 'DISCONNECTED';
  const backs = phases.map((p) => p.allBackMs ?? Infinity);
  console.log(`verdict: ${ok ? 'PASS' : 'FAIL'} (every part back within ${RECOVERY_MS / 1000} s: ${recovered}; slowest ${(Math.max(...backs) / 1000).toFixed(1)} s, median ${(percentile(backs, 50) / 1000).toFixed(1)} s; commands hung: ${hung})`);
  await service.close();
  await other.close();
  await shutdown(ok ? 0 : 1);
} catch (err) {
  console.error(err);
  await shutdown(1);
}
