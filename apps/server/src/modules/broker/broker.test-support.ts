import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { connect } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { devices, organizations } from '../../db/schema/index.js';
import { freePort, startTestConsole, type TestConsole } from '../../testing/test-console.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const AGENT_BIN = path.resolve(here, '../../../../agent/bin/fleetlink-agent.mjs');
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

/** A device in a fresh organization, written straight to the database. */
export async function createDevice(db: Db, name = 'test device'): Promise<{ id: string; key: string; organizationId: string }> {
  const [org] = await db.insert(organizations).values({ type: 'COMPANY', name: `org ${randomBytes(3).toString('hex')}` }).returning();
  const key = randomBytes(16).toString('hex');
  const [dev] = await db.insert(devices).values({ organizationId: org!.id, name, installationKey: key }).returning();
  return { id: dev!.id, key, organizationId: org!.id };
}

export async function deviceRow(db: Db, id: string) {
  const [row] = await db.select().from(devices).where(eq(devices.id, id));
  return row!;
}

export interface AgentProcess {
  child: ChildProcess;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** The real agent CLI as a child process. */
export function spawnAgent(args: { server: string; device: string; key?: string; dataDir: string; maxBackoffMs?: number }): AgentProcess {
  const argv = [AGENT_BIN, 'run', '--server', args.server, '--device', args.device, '--data-dir', args.dataDir];
  if (args.key) argv.push('--key', args.key);
  const child = spawn(process.execPath, argv, { env: { ...process.env, FLEETLINK_AGENT_MAX_BACKOFF_MS: String(args.maxBackoffMs ?? 1000), ...(process.env.AGENT_NODE_OPTIONS ? { NODE_OPTIONS: process.env.AGENT_NODE_OPTIONS } : {}) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return {
    child,
    output: () => out,
    kill: (signal = 'SIGKILL') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}

export const tempDir = (prefix: string) => mkdtempSync(path.join(tmpdir(), prefix));

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
  stop(): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * Our own Mosquitto with the project's configuration (deploy/mosquitto) on a free port, and a
 * dynamic-security file made by `mosquitto_ctrl dynsec init`; never the system's broker.
 */
export async function startMosquitto(bin: string, port: number): Promise<MosquittoProcess> {
  const dir = tempDir('fleetlink-mosquitto-');
  const admin = { username: 'fleetlink-admin', password: randomBytes(12).toString('hex') };
  const dynsecFile = path.join(dir, 'dynamic-security.json');
  const ctrl = process.env.MOSQUITTO_CTRL_BIN ?? 'mosquitto_ctrl';
  const init = spawnSync(ctrl, ['dynsec', 'init', dynsecFile, admin.username, admin.password], { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`mosquitto_ctrl dynsec init failed: ${init.stderr}`);
  const { readFileSync } = await import('node:fs');
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
      child.stdout!.on('data', (d) => (log += d));
      child.stderr!.on('data', (d) => (log += d));
      await waitFor(async () => child!.exitCode !== null || (await portOpen(port)), 5000, 'mosquitto to start');
      if (child.exitCode !== null) throw new Error(`mosquitto exited: ${log}`);
    },
    async stop() {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        c.kill('SIGTERM');
      });
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
