import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// The hand-made archives the console's upload check is tested with: here they reach the agent.
import { manifest, tarGz, type ArchiveEntry } from '../../../server/src/modules/releases/bundle-archives.test-support.js';
import { unpackBundle } from './unpack-bundle.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'fleetlink-unpack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const agent: ArchiveEntry[] = [manifest('fleetlink-agent', '2.0.0'), { path: 'dist/cli.mjs', body: 'console.log(1)' }];
let n = 0;
async function unpack(entries: ArchiveEntry[], version = '2.0.0') {
  const file = path.join(dir, `b${n++}.tar.gz`);
  writeFileSync(file, tarGz(entries));
  const bundles = path.join(dir, `bundles${n}`);
  const result = await unpackBundle(file, bundles, 'fleetlink-agent', version).catch((err: Error) => err);
  return { result, bundles, outside: path.join(dir, 'escaped') };
}

describe('unpackBundle (the agent side of self-update)', () => {
  it('unpacks a bundle into bundles/{version}, whole', async () => {
    const { result, bundles } = await unpack(agent);
    expect(result).toBe(path.join(bundles, '2.0.0'));
    expect(readFileSync(path.join(bundles, '2.0.0', 'dist', 'cli.mjs'), 'utf8')).toBe('console.log(1)');
    expect(readdirSync(bundles)).toEqual(['2.0.0']);
  });

  it.each([
    ['../escaped', 'outside its folder'],
    ['dist/../../escaped', 'outside its folder'],
    ['/tmp/escaped-absolute', 'outside its folder'],
    ['C:/escaped', 'outside its folder'],
  ])('refuses an entry %s before writing anything', async (entryPath, why) => {
    const { result, bundles, outside } = await unpack([...agent, { path: entryPath, body: 'x' }]);
    expect((result as Error).message).toBe(`The bundle fleetlink-agent 2.0.0 was refused: it holds ${entryPath} (${why}).`);
    expect(existsSync(bundles)).toBe(false);
    expect(existsSync(outside)).toBe(false);
  });

  it('refuses links and other non-files', async () => {
    const link = await unpack([...agent, { path: 'dist/passwd', type: 'SymbolicLink', linkpath: '/etc/passwd' }]);
    expect((link.result as Error).message).toBe('The bundle fleetlink-agent 2.0.0 was refused: it holds dist/passwd (SymbolicLink).');
    const hard = await unpack([...agent, { path: 'dist/h', type: 'Link', linkpath: 'dist/cli.mjs' }]);
    expect((hard.result as Error).message).toMatch(/it holds dist\/h \(Link\)/);
  });

  it('refuses a bundle whose manifest is another version, or that holds no agent', async () => {
    expect(((await unpack(agent, '2.0.1')).result as Error).message).toBe("The bundle's manifest says fleetlink-agent 2.0.0, not fleetlink-agent 2.0.1.");
    const noAgent = await unpack([manifest('fleetlink-agent', '2.0.0')]);
    expect((noAgent.result as Error).message).toBe('The bundle fleetlink-agent 2.0.0 holds no agent (dist/cli.mjs).');
    expect(readdirSync(noAgent.bundles)).toEqual([]);
  });
});
