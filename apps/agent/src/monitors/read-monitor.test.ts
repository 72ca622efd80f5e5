import { lutimesSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMonitor } from './read-monitor.js';

describe('readMonitor', () => {
  let dir: string;
  const def = (type: 'UPDATE' | 'SIZE' | 'VERSION', p: string) => ({ id: 'm1', type, path: p });

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'fleetlink-monitor-'));
    mkdirSync(path.join(dir, 'tree', 'a', 'b'), { recursive: true });
    writeFileSync(path.join(dir, 'tree', 'one'), Buffer.alloc(100));
    writeFileSync(path.join(dir, 'tree', 'a', 'two'), Buffer.alloc(200));
    writeFileSync(path.join(dir, 'tree', 'a', 'b', 'three'), Buffer.alloc(300));
    symlinkSync('/usr', path.join(dir, 'tree', 'link'));
    const old = new Date('2025-01-01T00:00:00Z');
    for (const p of ['tree', 'tree/a', 'tree/a/b', 'tree/one', 'tree/a/two']) utimesSync(path.join(dir, p), old, old);
    utimesSync(path.join(dir, 'tree', 'a', 'b', 'three'), old, new Date('2026-06-01T12:00:00Z'));
    lutimesSync(path.join(dir, 'tree', 'link'), old, old);
    utimesSync(path.join(dir, 'tree', 'a', 'b'), old, old);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('counts a folder’s files without following links, and finds its newest change', async () => {
    const tree = path.join(dir, 'tree');
    expect(await readMonitor(def('SIZE', tree))).toEqual({ ...def('SIZE', tree), value: '600', note: null });
    expect(await readMonitor(def('UPDATE', tree))).toMatchObject({ value: '2026-06-01T12:00:00.000Z', note: null });
  });

  it('reports a folder too big for its time as far as it got, with a note', async () => {
    const partial = await readMonitor(def('SIZE', path.join(dir, 'tree')), -1);
    expect(partial.value).toBe('0');
    expect(partial.note).toBe('The folder is too big to count in 0 s: it holds at least this much.');
  });

  it('says why there is no value: missing, relative, or no version', async () => {
    const gone = path.join(dir, 'gone');
    expect(await readMonitor(def('UPDATE', gone))).toMatchObject({ value: null, note: `'${gone}' does not exist.` });
    expect(await readMonitor(def('SIZE', 'relative/x'))).toMatchObject({ value: null, note: "The path 'relative/x' is not absolute." });
    expect(await readMonitor(def('VERSION', path.join(dir, 'tree', 'one')))).toMatchObject({ value: null, note: `'${path.join(dir, 'tree', 'one')}' is not a text file.` });
  });
});
