import { chmodSync, readdirSync, lstatSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestConsole, type TestConsole } from '../../testing/test-console.js';
import { keepDataDirPrivate } from './private-data-dir.js';

/** Every entry under a folder that group or others may read, write or enter. */
const shared = (dir: string) =>
  [dir, ...readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((n) => path.join(dir, n))].filter((f) => {
    const st = lstatSync(f);
    return !st.isSymbolicLink() && (st.mode & 0o077) !== 0;
  });

/** Issue 58: nothing the console keeps under DATA_DIR is readable or writable by other users of the machine. */
describe('DATA_DIR is private to the console', () => {
  let tc: TestConsole;

  beforeAll(async () => {
    tc = await startTestConsole();
  });
  afterAll(async () => tc?.close());

  it('creates every file 0600 and every folder 0700, the database included', () => {
    const entries = readdirSync(tc.dataDir, { recursive: true, encoding: 'utf8' });
    expect(entries.length).toBeGreaterThan(tc.database.kind === 'pglite' ? 500 : 0);
    expect(shared(tc.dataDir)).toEqual([]);
  });

  it('makes private again, at the next start, what an older console left wider', async () => {
    await tc.stop();
    chmodSync(tc.dataDir, 0o755);
    const pg = path.join(tc.dataDir, 'pg');
    const wide = [path.join(tc.dataDir, 'secret.key'), ...(tc.database.kind === 'pglite' ? [path.join(pg, 'PG_VERSION'), pg] : [])];
    const widen = () => {
      chmodSync(tc.dataDir, 0o755);
      for (const f of wide) chmodSync(f, lstatSync(f).isDirectory() ? 0o777 : 0o666);
    };
    // Not the console's: DATA_DIR may hold other things, which are left as they are.
    const other = path.join(tc.dataDir, 'notes.txt');
    writeFileSync(other, 'mine');
    chmodSync(other, 0o644);
    widen();
    await tc.restart();
    expect(shared(tc.dataDir)).toEqual([other]);
    widen();
    expect(keepDataDirPrivate(tc.dataDir)).toBe(1 + wide.length);
  });
});
