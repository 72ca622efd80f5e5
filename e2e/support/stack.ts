import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../apps/server/src/testing/test-console.js';

export interface Stack {
  url: string;
  /** The embedded MQTT broker's port, for agents started by a test. */
  mqttPort: number;
  /** The built-in tunnel proxy's HTTP ingress port (tunnels at http://{path}.localhost:{port}). */
  tunnelHttpPort: number;
  dataDir: string;
  /** Everything the console wrote to stdout and stderr so far: its log. */
  output(): string;
  /**
   * Stops the console (SIGTERM) and starts it again on the same ports and data, as an operator's
   * restart; `whileDown` runs in between, while nothing answers.
   */
  restart(whileDown?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Starts the real console the way `npm run serve` does (built SPA, API, built-in provider, PGlite in
 * a fresh folder) as a child process on a free port, and waits until it says it is listening.
 */
export async function startStack(extraEnv: Record<string, string> = {}): Promise<Stack> {
  // A free port can be taken by another suite's process before the console binds it: try new ones.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startStackOnce(extraEnv);
    } catch (err) {
      if (attempt >= 3 || !/already in use/.test((err as Error).message)) throw err;
    }
  }
}

async function startStackOnce(extraEnv: Record<string, string>): Promise<Stack> {
  const port = await freePort();
  const mqttPort = await freePort();
  const tunnelSshPort = await freePort();
  const tunnelHttpPort = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fleetlink-e2e-'));
  const url = `http://localhost:${port}`;
  let output = '';
  const collect = (chunk: Buffer) => (output += chunk.toString());
  const launch = () => {
    // No built-in release (a packed agent) unless a spec asks for one: specs count the releases they make.
    const started = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: String(port), MQTT_EMBEDDED_PORT: String(mqttPort), TUNNEL_SSH_PORT: String(tunnelSshPort), TUNNEL_HTTP_PORT: String(tunnelHttpPort), DATA_DIR: dataDir, LOG_LEVEL: 'warn', AGENT_BUILT_IN_RELEASE: 'false', ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.stdout!.on('data', collect);
    started.stderr!.on('data', collect);
    return started;
  };
  const end = async (c: ChildProcess) => {
    if (c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await exited;
  };
  let child = launch();
  try {
    await waitForStart(child);
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    mqttPort,
    tunnelHttpPort,
    dataDir,
    output: () => output,
    async restart(whileDown) {
      await end(child);
      await whileDown?.();
      child = launch();
      await waitForStart(child);
    },
    async stop() {
      await end(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function waitForStart(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`console did not start in 60 s:\n${output}`)), 60_000);
    const fail = (err: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Fleetlink console running at')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => fail(new Error(`console exited with ${code}:\n${output}`)));
  });
}
