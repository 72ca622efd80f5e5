import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The passwords generated for the seeded accounts of an exposed console, printed once at the start
 * that made them and kept in DATA_DIR (which holds the database with their hashes and the
 * provider's keys anyway), readable by its owner only, so `npm run token` on that machine still
 * signs in. Delete the file once they are stored elsewhere; nothing else reads it.
 */
export const KEPT_PASSWORDS_FILE = 'seeded-passwords.txt';

const HEADER = '# Generated passwords of the built-in sign-in accounts (email password). Delete this file once they are stored elsewhere.\n';

export function keptPasswordsPath(dataDir: string): string {
  return path.resolve(dataDir, KEPT_PASSWORDS_FILE);
}

export function readKeptPasswords(dataDir: string): Map<string, string> {
  const file = keptPasswordsPath(dataDir);
  const kept = new Map<string, string>();
  if (!existsSync(file)) return kept;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [email, password] = line.trim().split(/\s+/);
    if (email && password && !email.startsWith('#')) kept.set(email, password);
  }
  return kept;
}

/** Adds (or replaces) these accounts' passwords in the file, mode 0600. */
export function keepPasswords(dataDir: string, passwords: { email: string; password: string }[]): string {
  const file = keptPasswordsPath(dataDir);
  const kept = readKeptPasswords(dataDir);
  for (const p of passwords) kept.set(p.email, p.password);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, HEADER + [...kept].map(([email, password]) => `${email} ${password}\n`).join(''), { mode: 0o600 });
  // writeFileSync's mode applies to a new file only.
  chmodSync(file, 0o600);
  return file;
}
