import { chmodSync, existsSync, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Group and other permission bits: none of them on anything the console keeps. */
const SHARED_BITS = 0o077;

/**
 * Takes group and other permissions off a file or a folder and everything in it (files 0600,
 * folders 0700, an executable 0700), leaving symbolic links alone; answers how many entries had any.
 */
export function keepPrivate(target: string, o: { recursive: boolean } = { recursive: true }): number {
  if (!existsSync(target)) return 0;
  let loosened = 0;
  const inside = o.recursive && lstatSync(target).isDirectory() ? readdirSync(target, { recursive: true, encoding: 'utf8' }) : [];
  const entries = [target, ...inside.map((name) => path.join(target, name))];
  for (const entry of entries) {
    let mode: number;
    try {
      const st = lstatSync(entry);
      if (st.isSymbolicLink()) continue;
      mode = st.mode & 0o7777;
    } catch {
      continue; // removed meanwhile (a sweep, a checkpoint)
    }
    if ((mode & SHARED_BITS) === 0) continue;
    chmodSync(entry, mode & ~SHARED_BITS);
    loosened++;
  }
  return loosened;
}
