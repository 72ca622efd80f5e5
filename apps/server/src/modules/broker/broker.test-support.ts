import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { connect } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { devices, organizationMembers, organizations } from '../../db/schema/index.js';
import { freePort, startTestConsole, type TestConsole } from '../../testing/test-console.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const AGENT_BIN = path.resolve(here, '../../../../agent/bin/fleetlink-agent.mjs');
/**
 * The Node.js the test agents run on: the console's own, or AGENT_NODE. Devices keep their Node
 * longer than servers do, so CI runs the agent's suites once more with AGENT_NODE set to the
 * machine's older Node (the oldest line the agent supports) while the console runs on the newer one.
 */
export const AGENT_NODE = process.env.AGENT_NODE || process.execPath;
/** The version of that Node, as the agent reports it (`java.version`). */
export const AGENT_NODE_VERSION = AGENT_NODE === process.execPath ? process.versions.node : nodeVersion(AGENT_NODE);

function nodeVersion(node: string): string {
  return spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout?.trim() ?? '';
}

/**
 * The machine's own Node when it is an older line than the one running the tests (scripts/node24.sh
 * names it FLEETLINK_SYSTEM_NODE where it provides a newer one): what a device that kept its Node runs.
 */
export function olderSystemNode(): { path: string; version: string } | undefined {
  const node = process.env.FLEETLINK_SYSTEM_NODE;
  if (!node) return undefined;
  const version = nodeVersion(node);
  return Number(version.split('.')[0]) < Number(process.versions.node.split('.')[0]) ? { path: node, version } : undefined;
}
export const MOSQUITTO_CONF = path.resolve(here, '../../../../../deploy/mosquitto/mosquitto.conf');

export async function waitFor<T>(probe: () => Promise<T | undefined | false> | T | undefined | false, ms = 10_000, what = 'condition'): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A device in a fresh organization, written straight to the database; `createdAt` back-dates its
 * registration (load samples dated before it are dropped).
 */
export async function createDevice(db: Db, name = 'test device', createdAt?: Date): Promise<{ id: string; key: string; organizationId: string }> {
  const [org] = await db.insert(organizations).values({ type: 'COMPANY', name: `org ${randomBytes(3).toString('hex')}` }).returning();
  const key = randomBytes(16).toString('hex');
  const [dev] = await db.insert(devices).values({ organizationId: org!.id, name, installationKey: key, createdAt }).returning();
  return { id: dev!.id, key, organizationId: org!.id };
}

export const ADMIN_EMAIL = 'admin@fleetlink.local';
export const USER_EMAIL = 'user@fleetlink.local';
export const GUEST_EMAIL = 'guest@fleetlink.local';

/** A device of a new organization where admin@ is ADMIN and user@ a USER. */
export async function memberDevice(db: Db, name: string): Promise<{ id: string; key: string; organizationId: string }> {
  const dev = await createDevice(db, name);
  await db.insert(organizationMembers).values([
    { organizationId: dev.organizationId, email: ADMIN_EMAIL, role: 'ADMIN' },
    { organizationId: dev.organizationId, email: USER_EMAIL, role: 'USER' },
  ]);
  return dev;
}

export async function deviceRow(db: Db, id: string) {
  const [row] = await db.select().from(devices).where(eq(devices.id, id));
  return row!;
}

export interface AgentProcess {
  /** The launcher, which runs the agent as its own child (apps/agent/bin/supervise.mjs). */
  child: ChildProcess;
  output(): string;
  /** The agent process under the launcher now (a restart gives a new one). */
  workerPid(): Promise<number>;
  /** SIGKILL kills the agent itself first, as a crash would; other signals go to the launcher. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Child pids of a process (Linux). */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Every process under `pid`, its children's children too. */
export const descendantPids = (pid: number): number[] => childPids(pid).flatMap((child) => [child, ...descendantPids(child)]);

/**
 * The agent process a launcher runs now: the child whose command line runs the agent's cli (a
 * bundle's dist/cli.mjs, or src/cli.ts), not the esbuild service a launcher rebuilding a stale
 * bundle starts, nor the shell launcher's trial watchdog.
 */
export function agentPidUnder(launcher: number): number | undefined {
  return childPids(launcher).find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').some((arg) => /[\\/]cli\.(mjs|ts)$/.test(arg));
    } catch {
      return false;
    }
  });
}

/**
 * The Node.js flags an agent runs with, as `agentDir`'s bin/node-flags.mjs prints them on AGENT_NODE
 * (this checkout's apps/agent, or an unpacked bundle).
 */
export function nodeFlagsOf(agentDir = path.dirname(path.dirname(AGENT_BIN))): string[] {
  return execFileSync(AGENT_NODE, [path.join(agentDir, 'bin', 'node-flags.mjs')], { encoding: 'utf8' }).trim().split(' ').filter(Boolean);
}

/** The first `count` arguments a process was started with, after its program (Linux). */
export function startArgsOf(pid: number, count: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(1, 1 + count);
}

/** The home a test agent's shells start in (HOME), inside its data folder. */
export const agentHome = (dataDir: string) => path.join(dataDir, 'home');

/** The real agent CLI as a child process, on AGENT_NODE unless `node` names another. */
export function spawnAgent(args: { server: string; device: string; key?: string; dataDir: string; maxBackoffMs?: number; uid?: number; gid?: number; node?: string }): AgentProcess {
  const argv = [AGENT_BIN, 'run', '--server', args.server, '--device', args.device, '--data-dir', args.dataDir];
  // The terminal's shells start in an empty home of their own. With this machine's dotfiles a login
  // shell runs whatever they run: here pyenv's rehash, whose lock a shell killed as it starts (a
  // test's closed session) leaves behind, and every later shell then waits a minute for it.
  const home = agentHome(args.dataDir);
  mkdirSync(home, { recursive: true });
  if (args.uid !== undefined) chownSync(home, args.uid, args.gid ?? args.uid);
  // The key as the Install page's command gives it: in the environment, not on the command line.
  const env = { ...process.env, HOME: home, FLEETLINK_AGENT_KEY: args.key ?? '', FLEETLINK_AGENT_MAX_BACKOFF_MS: String(args.maxBackoffMs ?? 1000), ...(process.env.AGENT_NODE_OPTIONS ? { NODE_OPTIONS: process.env.AGENT_NODE_OPTIONS } : {}) };
  const child = spawn(args.node ?? AGENT_NODE, argv, { env, stdio: ['ignore', 'pipe', 'pipe'], uid: args.uid, gid: args.gid });
  return launched(child, () => agentPidUnder(child.pid!));
}

/** An agent's launcher process as tests hold it: its output, the agent under it (`agentPid`), and how to end it. */
export function launched(child: ChildProcess, agentPid: () => number | undefined): AgentProcess {
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return {
    child,
    output: () => out,
    workerPid: () => waitFor(agentPid, 10_000, 'the agent process under its launcher'),
    kill: (signal = 'SIGKILL') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        if (signal === 'SIGKILL') {
          // The launcher is stopped first, so that it starts no agent between its tree being read and
          // its end; then the whole tree goes. A process left over would outlive the test holding its
          // connections to the console, whose close then waits (self-update.test.ts's afterAll hung so).
          const signalled = (pid: number, sig: NodeJS.Signals) => {
            try {
              process.kill(pid, sig);
            } catch {
              // Ended meanwhile: the shell launcher's restart delay (a `sleep`) may come and go.
            }
          };
          signalled(child.pid!, 'SIGSTOP');
          for (const pid of descendantPids(child.pid!)) signalled(pid, 'SIGKILL');
        }
        child.kill(signal);
      }),
  };
}

/**
 * A real agent for the device, enrolled with its key, online and answering the console's ping.
 * What it leaves behind goes into `cleanup` for the suite's afterAll.
 */
export async function runAgentOnline(
  tc: TestConsole,
  dev: { id: string; key: string },
  cleanup: { agents: AgentProcess[]; dirs: string[] },
  as?: { uid: number; gid: number },
): Promise<AgentProcess> {
  const dataDir = tempDir('fleetlink-agent-');
  cleanup.dirs.push(dataDir);
  if (as) chownSync(dataDir, as.uid, as.gid);
  const agent = spawnAgent({ server: tc.url, device: dev.id, key: dev.key, dataDir, ...as });
  cleanup.agents.push(agent);
  await agentOnline(tc, dev.id);
  return agent;
}

/**
 * The device's agent online in the console's view (what a person acting on it is checked against)
 * and answering its ping. Answering alone is not enough: its state is written a moment later.
 * `after`: the device's state order before its agent restarted, so that neither the old process
 * answering on its way out nor its online state not yet overwritten passes for the new one.
 */
export async function agentOnline(tc: TestConsole, deviceId: string, after?: number | null): Promise<void> {
  const newer = (order: number | null) => after == null || (order !== null && order > after);
  await waitFor(async () => {
    const row = await deviceRow(tc.database.db, deviceId);
    return row.online && newer(row.stateOrder);
  }, 15_000, after == null ? 'agent online' : 'agent online again');
  await waitFor(() => tc.messaging!.hub.ping(deviceId).catch(() => undefined), 10_000, 'agent answering');
}

/** What a suite about one live device starts from: the seeded accounts' tokens, and the device with its agent. */
export interface OnlineMemberDevice {
  admin: string;
  user: string;
  guest: string;
  device: { id: string; key: string; organizationId: string };
  agent: AgentProcess;
}

/**
 * Once the hub is connected to the suite's message server: tokens for admin@, user@ and guest@, and
 * a device of a new organization (admin@ ADMIN, user@ USER) whose real agent is online.
 */
export async function onlineMemberDevice(s: MessagingSetup, name: string, cleanup: { agents: AgentProcess[]; dirs: string[] }): Promise<OnlineMemberDevice> {
  await waitFor(() => s.tc.messaging!.hub.isConnected(s.serverId), 10_000, 'hub connected');
  const [admin, user, guest] = await Promise.all([s.tc.token(ADMIN_EMAIL), s.tc.token(USER_EMAIL), s.tc.token(GUEST_EMAIL)]);
  const device = await memberDevice(s.tc.database.db, name);
  const agent = await runAgentOnline(s.tc, device, cleanup);
  return { admin, user, guest, device, agent };
}

/**
 * Whether the device's agent answers a ping through that message server's connection now: asked
 * straight on the device's topic, whatever the database says of the device (it may be gone).
 */
export function answersOn(tc: TestConsole, serverId: string, deviceId: string): Promise<boolean> {
  return tc.messaging!.hub.request(deviceId, 'ping', {}, { timeoutMs: 700, via: tc.messaging!.hub.connection(serverId) }).then(
    () => true,
    () => false,
  );
}

/** A console and the message server its suite runs against: the embedded broker, or a Mosquitto of its own. */
export interface MessagingSetup {
  tc: TestConsole;
  serverId: string;
  mosquitto?: MosquittoProcess;
  dispose(): Promise<void>;
}

export async function embeddedSetup(extra: Record<string, string> = {}): Promise<MessagingSetup> {
  const tc = await startAgentTestConsole(extra);
  return { tc, serverId: tc.messaging!.embeddedServerId!, dispose: async () => {} };
}

export async function mosquittoSetup(bin: string, extra: Record<string, string> = {}): Promise<MessagingSetup> {
  const mosquitto = await startMosquitto(bin, await freePort());
  const tc = await startAgentTestConsole({ MQTT_EMBEDDED_PORT: '0', ...extra });
  const serverId = await registerMosquitto(tc, mosquitto, await tc.token(ADMIN_EMAIL));
  return { tc, serverId, mosquitto, dispose: () => mosquitto.dispose() };
}

export const tempDir = (prefix: string) => mkdtempSync(path.join(tmpdir(), prefix));

/** The end of a suite that ran agents: they stop first, then the console and its broker, then their folders go. */
export async function tearDown(s: MessagingSetup | undefined, cleanup: { agents: AgentProcess[]; dirs: string[] }): Promise<void> {
  // Which step is slow is said as it happens: a hook that times out says only that it did.
  const step = async (what: string, run: () => Promise<unknown>) => {
    const slow = setTimeout(() => console.error(`tearDown: ${what} has taken more than 15 s`), 15_000);
    try {
      await run();
    } finally {
      clearTimeout(slow);
    }
  };
  for (const [i, a] of cleanup.agents.entries()) await step(`ending agent ${i + 1} of ${cleanup.agents.length}`, () => a.kill());
  await step('closing the console', async () => s?.tc.close());
  await step('stopping the message server', async () => s?.dispose());
  for (const d of cleanup.dirs) rmSync(d, { recursive: true, force: true });
}

/** The Mosquitto binary, when this machine has one (CI does). */
export function mosquittoBin(): string | undefined {
  if (process.env.MOSQUITTO_BIN) return process.env.MOSQUITTO_BIN;
  const found = spawnSync('sh', ['-c', 'command -v mosquitto || ls /usr/sbin/mosquitto'], { encoding: 'utf8' }).stdout.trim().split('\n')[0];
  return found && existsSync(found) ? found : undefined;
}

export interface MosquittoProcess {
  url: string;
  admin: { username: string; password: string };
  port: number;
  start(): Promise<void>;
  /** SIGTERM by default; SIGKILL as a crash ends it (bench/faults.ts). */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Sends a signal without waiting: SIGSTOP freezes it with its connections open (a hung server), SIGCONT thaws it. */
  signal(signal: NodeJS.Signals): void;
  dispose(): Promise<void>;
}

/**
 * Our own Mosquitto with the project's configuration (deploy/mosquitto) on a free port, and a
 * dynamic-security file made by `mosquitto_ctrl dynsec init`; never the system's broker. `nice`:
 * its scheduling priority, at each start (bench/fleet-consoles.ts, FLEET_BROKER_NICE).
 */
export async function startMosquitto(bin: string, port: number, opts: { nice?: number } = {}): Promise<MosquittoProcess> {
  const dir = tempDir('fleetlink-mosquitto-');
  const admin = { username: 'fleetlink-admin', password: randomBytes(12).toString('hex') };
  const dynsecFile = path.join(dir, 'dynamic-security.json');
  const ctrl = process.env.MOSQUITTO_CTRL_BIN ?? 'mosquitto_ctrl';
  const init = spawnSync(ctrl, ['dynsec', 'init', dynsecFile, admin.username, admin.password], { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`mosquitto_ctrl dynsec init failed: ${init.stderr}`);
  const plugin = process.env.MOSQUITTO_DYNSEC_PLUGIN ?? '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so';
  const conf = readFileSync(MOSQUITTO_CONF, 'utf8')
    .replace(/^listener .*$/m, `listener ${port} 127.0.0.1`)
    .replace(/^plugin .*$/m, `plugin ${plugin}`)
    .replace(/^plugin_opt_config_file .*$/m, `plugin_opt_config_file ${dynsecFile}`)
    .replace(/^persistence_location .*$/m, `persistence_location ${dir}/`);
  const confFile = path.join(dir, 'mosquitto.conf');
  // Started as root, mosquitto would switch to its own user, which cannot read our temp files.
  writeFileSync(confFile, `${conf}\nuser ${os.userInfo().username}\n`);
  let child: ChildProcess | undefined;
  let log = '';
  const m: MosquittoProcess = {
    url: `mqtt://127.0.0.1:${port}`,
    admin,
    port,
    async start() {
      log = '';
      child = spawn(bin, ['-c', confFile], { stdio: ['ignore', 'pipe', 'pipe'] });
      if (opts.nice && child.pid) os.setPriority(child.pid, opts.nice);
      child.stdout!.on('data', (d) => (log += d));
      child.stderr!.on('data', (d) => (log += d));
      await waitFor(async () => child!.exitCode !== null || (await portOpen(port)), 5000, 'mosquitto to start');
      if (child.exitCode !== null) throw new Error(`mosquitto exited: ${log}`);
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        c.kill(signal);
      });
    },
    signal(signal: NodeJS.Signals) {
      child?.kill(signal);
    },
    async dispose() {
      await m.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await m.start();
  return m;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

/** Enrolls a device through the API as its agent would; answers its MQTT account and message server URL. */
export async function enrollByHand(tc: TestConsole, dev: { id: string; key?: string; password?: string }): Promise<{ username: string; password: string; url: string }> {
  const res = await tc.api('/api/agent/enroll', { method: 'POST', json: { deviceId: dev.id, key: dev.key, password: dev.password } });
  if (res.status !== 200) throw new Error(`enrollment answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { mqtt: { username: string; password: string }; servers: { type: string; url: string }[] };
  return { ...body.mqtt, url: body.servers.find((s) => s.type === 'MESSAGE')!.url };
}

/** Registers a Mosquitto of `startMosquitto` as an ONLINE message server through the API; answers its id. */
export async function registerMosquitto(tc: TestConsole, mosquitto: MosquittoProcess, adminToken: string): Promise<string> {
  const res = await tc.api('/api/server', {
    token: adminToken,
    method: 'POST',
    json: {
      type: 'MESSAGE',
      url: mosquitto.url,
      maxCapacity: 100,
      status: 'ONLINE',
      username: mosquitto.admin.username,
      password: mosquitto.admin.password,
      trustStore: Buffer.from('not used for mqtt://').toString('base64'),
      trustStorePassword: 'changeit',
      blobBaseUrl: 'http://127.0.0.1:9/blobs',
    },
  });
  if (res.status !== 201) throw new Error(`registering Mosquitto answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** A test console with its embedded broker on a free port and agents reporting every one or two seconds. */
export async function startAgentTestConsole(extra: Record<string, string> = {}): Promise<TestConsole> {
  return startTestConsole({ MQTT_EMBEDDED_PORT: String(await freePort()), AGENT_HEARTBEAT_SECONDS: '2', AGENT_METRICS_SECONDS: '1', ...extra });
}
