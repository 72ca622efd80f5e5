import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

export interface ConsoleProcess {
  child: ChildProcess;
  output(): string;
  /** Ends it with `signal` (SIGKILL: no goodbye, as a crash or an OOM kill ends it) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** The console as `npm start` runs it, in a process of its own (a test can kill it hard), once it says it runs. */
export async function startConsoleProcess(env: Record<string, string>): Promise<ConsoleProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', AGENT_BUILT_IN_RELEASE: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const until = Date.now() + 60_000;
  while (!out.includes('Fleetlink console running at') && child.exitCode === null && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  if (!out.includes('Fleetlink console running at')) {
    child.kill('SIGKILL');
    throw new Error(`the console process did not start: ${out}`);
  }
  return {
    child,
    output: () => out,
    kill: (signal = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}
