import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readVersion } from './read-version.js';

describe('readVersion', () => {
  let dir: string;
  const file = (name: string, content: string | Buffer) => {
    const p = path.join(dir, name);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, content);
    return p;
  };

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'fleetlink-version-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads package.json and other JSON files by their version field', async () => {
    expect(await readVersion(file('package.json', JSON.stringify({ name: 'x', version: '2.4.10' })))).toBe('2.4.10');
    expect(await readVersion(file('manifest.json', '{"version":"1.0.0-beta.2"}'))).toBe('1.0.0-beta.2');
    await expect(readVersion(file('nover/package.json', '{"name":"x"}'))).rejects.toThrow(`has no "version" field.`);
    await expect(readVersion(file('broken.json', '{"version":'))).rejects.toThrow('is not valid JSON.');
  });

  it('reads a VERSION file by its first line, whatever it says', async () => {
    expect(await readVersion(file('VERSION', '\n  release-7 \nnotes\n'))).toBe('release-7');
    expect(await readVersion(file('rel/version.txt', '\uFEFF3.2\r\n'))).toBe('3.2');
    await expect(readVersion(file('empty/VERSION', ''))).rejects.toThrow('is empty.');
  });

  it('reads TOML manifests by their version line', async () => {
    expect(await readVersion(file('pyproject.toml', '[project]\nname = "x"\nversion = "0.9.1"\n'))).toBe('0.9.1');
    expect(await readVersion(file('Cargo.toml', "[package]\nversion = '1.75.0'\n"))).toBe('1.75.0');
  });

  it('reads the first version number on the first line of any other text file, like --version prints it', async () => {
    expect(await readVersion(file('agent.txt', 'fleetlink-agent 1.4.2 (linux x64)\n'))).toBe('1.4.2');
    expect(await readVersion(file('py.txt', 'Python 3.11.2rc1\n'))).toBe('3.11.2rc1');
    expect(await readVersion(file('git.txt', 'git version 2.39.5\n'))).toBe('2.39.5');
    expect(await readVersion(file('v.txt', 'tool v2.0.1-rc.1+build.5, built 2026-01-02\n'))).toBe('2.0.1-rc.1+build.5');
    await expect(readVersion(file('notes.txt', 'Just words, and 42 of them\n'))).rejects.toThrow('holds no version number.');
    await expect(readVersion(file('second.txt', 'header\n1.2.3\n'))).rejects.toThrow('holds no version number.');
  });

  it('refuses binaries, and reads a folder through the manifest it holds', async () => {
    await expect(readVersion(file('app.bin', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2])))).rejects.toThrow('is not a text file.');
    file('project/VERSION', '5.0\n');
    expect(await readVersion(path.join(dir, 'project'))).toBe('5.0');
    file('project/package.json', '{"version":"5.1.0"}');
    expect(await readVersion(path.join(dir, 'project'))).toBe('5.1.0');
    mkdirSync(path.join(dir, 'bare'));
    await expect(readVersion(path.join(dir, 'bare'))).rejects.toThrow('holds none of package.json, VERSION');
  });
});
