import { createHash } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { BundleArchive } from './bundle-archive.js';
import { manifest, tarGz, type ArchiveEntry } from './bundle-archives.test-support.js';

/** Streams `bytes` through a BundleArchive in chunks of `chunk` bytes; answers its verdict. */
async function inspect(bytes: Buffer, chunk = 97): Promise<{ manifest: { name: string; version: string }; sha256: string } | string> {
  const archive = new BundleArchive();
  const chunks = Array.from({ length: Math.ceil(bytes.length / chunk) }, (_, i) => bytes.subarray(i * chunk, (i + 1) * chunk));
  let passed = 0;
  try {
    await pipeline(Readable.from(chunks), archive.stream, new Writable({ write: (c: Buffer, _e, done) => ((passed += c.length), done()) }));
    expect(passed).toBe(bytes.length);
    return archive.result();
  } catch (err) {
    return (err as Error).message;
  }
}

const bundle = (...entries: ArchiveEntry[]) => tarGz([manifest('agent', '1.2.3'), ...entries]);

describe('BundleArchive', () => {
  it('answers the manifest and the SHA-256 of the bytes as sent, however they are cut', async () => {
    const bytes = bundle({ path: 'lib/', type: 'Directory' }, { path: 'lib/main.mjs', body: 'export {};' });
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    for (const chunk of [1, 13, 512, bytes.length]) expect(await inspect(bytes, chunk)).toEqual({ manifest: { name: 'agent', version: '1.2.3' }, sha256 });
    expect(await inspect(tarGz([{ path: './manifest.json', body: JSON.stringify({ name: 'agent', version: '2.0.0-rc.1+b5' }) }]))).toMatchObject({
      manifest: { version: '2.0.0-rc.1+b5' },
    });
  });

  it('refuses entries that leave the archive or are not files and folders', async () => {
    expect(await inspect(bundle({ path: 'C:/Windows/evil.dll', body: 'x' }))).toBe('The archive\'s entry "C:/Windows/evil.dll" points outside the archive.');
    expect(await inspect(bundle({ path: 'a/./b/../../../x', body: 'x' }))).toBe('The archive\'s entry "a/./b/../../../x" points outside the archive.');
    expect(await inspect(bundle({ path: 'fifo', type: 'FIFO' }))).toBe('The archive\'s entry "fifo" is a FIFO: a bundle may hold only files and folders.');
    // Climbing down and up again stays inside: refused only past the top.
    expect(await inspect(bundle({ path: 'a/../b.mjs', body: 'x' }))).toMatchObject({ manifest: { name: 'agent' } });
  });

  it('wants exactly one manifest at the top, small, with a valid name and version', async () => {
    expect(await inspect(tarGz([{ path: 'sub/manifest.json', body: JSON.stringify({ name: 'a', version: '1.0.0' }) }]))).toBe('The archive has no manifest.json at its top level.');
    expect(await inspect(tarGz([manifest('a', '1.0.0'), manifest('a', '1.0.1')]))).toBe('The archive holds manifest.json twice.');
    expect(await inspect(tarGz([{ path: 'manifest.json', body: ' '.repeat(65 * 1024) }]))).toBe('manifest.json is larger than 64 KiB.');
    expect(await inspect(tarGz([{ path: 'manifest.json', body: '[1]' }]))).toBe('manifest.json has no name.');
    expect(await inspect(tarGz([{ path: 'manifest.json', body: 'null' }]))).toBe('manifest.json must be a JSON object with a name and a version.');
    expect(await inspect(tarGz([{ path: 'manifest.json', body: '{"name":"a"}' }]))).toBe('manifest.json has no version.');
    expect(await inspect(tarGz([manifest('a', 'v1.0.0')]))).toBe('The manifest\'s version "v1.0.0" is not a semantic version such as 1.2.3.');
    expect(await inspect(tarGz([{ path: 'manifest.json', body: '{"name":"a","version":1}' }]))).toBe("The manifest's version 1 is not a semantic version such as 1.2.3.");
  });

  it('tells an archive cut short from a file that is no archive at all', async () => {
    const whole = bundle({ path: 'big.bin', body: Buffer.alloc(40_000, 1) });
    expect(await inspect(whole.subarray(0, whole.length - 30))).toMatch(/^The archive is damaged: /);
    expect(await inspect(Buffer.from('{"name":"agent","version":"1.2.3"}'))).toBe('The file is not a .tar.gz archive.');
    expect(await inspect(Buffer.alloc(0))).toBe('The file is not a .tar.gz archive.');
  });
});
