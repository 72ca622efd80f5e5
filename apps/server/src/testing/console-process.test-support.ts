import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const STARTED = 'Fleetlink console running at';
const START_TIMEOUT_MS = 60_000;

export interface ConsoleProcess {
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far: its log. */
  output(): string;
  /** Ends it with `signal` (SIGKILL: no goodbye, as a crash or an OOM kill ends it) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * The console as `npm start` runs it, in a process of its own (a test can kill it hard), once it
 * says it runs; one that exits first, or is silent for 60 s, fails with what it wrote. No built-in
 * release (a packed agent) unless `env` asks for one: tests count the releases they make.
 */
export async function startConsoleProcess(env: Record<string, string>, nodeArgs: string[] = []): Promise<ConsoleProcess> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', AGENT_BUILT_IN_RELEASE: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const fail = (err: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(err);
    };
    const exited = (code: number | null) => fail(new Error(`the console exited with ${code}:\n${out}`));
    const timer = setTimeout(() => fail(new Error(`the console did not start in ${START_TIMEOUT_MS / 1000} s:\n${out}`)), START_TIMEOUT_MS);
    const collect = (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes(STARTED)) return;
      clearTimeout(timer);
      child.off('exit', exited);
      resolve();
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.once('exit', exited);
  });
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
