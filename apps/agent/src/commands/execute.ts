import type { ChildProcess } from 'node:child_process';
import { COMMAND_OUTPUT_MAX_BYTES, type CommandOutput } from '@fleetlink/contract';
import { CappedOutput } from './capped-output.js';

/**
 * Each stream's share of the answer as JSON: two of them stay well inside the console's limit for
 * one message from a device (512 KiB), whatever bytes the command printed.
 */
const JSON_BUDGET_PER_STREAM = 192 * 1024;

/** How long after the kill at the timeout the output may still close by itself. */
const STRAGGLER_GRACE_MS = 1000;

/**
 * node:child_process, loaded with the first command: an agent that runs none does not carry it
 * (issue 73: with node:crypto, node:tty and node:v8 also left until needed, an idle agent on
 * Node 24 went from 63.1 to 61.2 MB).
 */
const childProcess = () => process.getBuiltinModule('node:child_process');

/** Commands running now, so that stopping the agent leaves none of their processes behind. */
const running = new Set<ChildProcess>();

/**
 * Runs a shell command as the agent's user, in a process group of its own so that at its deadline
 * the whole tree goes, not only the shell. Answers when the command and everything holding its
 * output have ended, or when it was killed. What it started with its output sent elsewhere
 * (`nohup server > log &`) is its own business and keeps running.
 */
export async function execute(command: string, timeoutMs: number): Promise<CommandOutput> {
  const started = performance.now();
  const child = childProcess().spawn(command, {
    shell: true,
    detached: process.platform !== 'win32',
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
  running.add(child);
  const stdout = new CappedOutput(COMMAND_OUTPUT_MAX_BYTES);
  const stderr = new CappedOutput(COMMAND_OUTPUT_MAX_BYTES);
  child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
  let timedOut = false;
  let giveUp: NodeJS.Timeout | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    killTree(child);
    // A process that left the group (setsid) may still hold the output open: stop listening to
    // it, so the answer goes and the command's slot is free.
    giveUp = setTimeout(() => {
      child.stdout!.destroy();
      child.stderr!.destroy();
    }, STRAGGLER_GRACE_MS);
  }, timeoutMs);
  const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  clearTimeout(timer);
  clearTimeout(giveUp);
  running.delete(child);
  const out = stdout.text(JSON_BUDGET_PER_STREAM);
  const err = stderr.text(JSON_BUDGET_PER_STREAM);
  return {
    exitCode: ended.code,
    signal: ended.signal,
    timedOut,
    stdout: out.text,
    stderr: ended.error ? `${err.text}${ended.error.message}\n` : err.text,
    stdoutCut: out.cut,
    stderrCut: err.cut,
    durationMs: Math.round(performance.now() - started),
  };
}

/** Kills every command still running (the agent is stopping). */
export function killRunningCommands(): void {
  for (const child of running) killTree(child);
}

function killTree(child: ChildProcess) {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') childProcess().spawnSync('taskkill', ['/pid', String(child.pid), '/t', '/f'], { windowsHide: true });
    else process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
