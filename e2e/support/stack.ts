import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startConsoleProcess, type ConsoleProcess } from '../../apps/server/src/testing/console-process.test-support.js';
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
  const env = { PORT: String(port), MQTT_EMBEDDED_PORT: String(mqttPort), TUNNEL_SSH_PORT: String(tunnelSshPort), TUNNEL_HTTP_PORT: String(tunnelHttpPort), DATA_DIR: dataDir, ...extraEnv };
  let current: ConsoleProcess;
  try {
    current = await startConsoleProcess(env);
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  // The log of the processes a restart ended, before the current one's.
  let earlier = '';
  return {
    url,
    mqttPort,
    tunnelHttpPort,
    dataDir,
    output: () => earlier + current.output(),
    async restart(whileDown) {
      await current.kill();
      earlier += current.output();
      await whileDown?.();
      current = await startConsoleProcess(env);
    },
    async stop() {
      await current.kill();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
