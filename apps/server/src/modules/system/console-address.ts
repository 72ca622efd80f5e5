import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Where the console of a DATA_DIR is running, for the scripts of that machine (`npm run token`):
 * a console started with `PORT=9090` is found there without setting PORT again. Written when the
 * console listens and removed when it stops; a file left by a killed console names a process that
 * no longer runs, and is ignored.
 */
export const CONSOLE_ADDRESS_FILE = 'console-address.json';

interface ConsoleAddress {
  url: string;
  pid: number;
}

const fileIn = (dataDir: string) => path.resolve(dataDir, CONSOLE_ADDRESS_FILE);

export function writeConsoleAddress(dataDir: string, url: string): void {
  mkdirSync(path.resolve(dataDir), { recursive: true, mode: 0o700 });
  writeFileSync(fileIn(dataDir), JSON.stringify({ url, pid: process.pid } satisfies ConsoleAddress) + '\n', { mode: 0o600 });
}

/** Removes the file if this process wrote it: a second console of the same DATA_DIR may have replaced it. */
export function removeConsoleAddress(dataDir: string): void {
  if (readAddress(dataDir)?.pid === process.pid) rmSync(fileIn(dataDir), { force: true });
}

/** The URL of the console running on this DATA_DIR, if one is. */
export function runningConsoleUrl(dataDir: string): string | undefined {
  const address = readAddress(dataDir);
  return address && isRunning(address.pid) ? address.url : undefined;
}

function readAddress(dataDir: string): ConsoleAddress | undefined {
  try {
    if (!existsSync(fileIn(dataDir))) return undefined;
    const parsed = JSON.parse(readFileSync(fileIn(dataDir), 'utf8')) as Partial<ConsoleAddress>;
    return typeof parsed.url === 'string' && Number.isInteger(parsed.pid) ? (parsed as ConsoleAddress) : undefined;
  } catch {
    return undefined; // unreadable or half-written: as if absent
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
