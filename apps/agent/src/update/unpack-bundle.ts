import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { list, extract } from 'tar';
import { Refused } from '../refused.js';

/**
 * A path inside the bundle's own folder, or why not: no absolute path, drive or `..` segment.
 * Checked before anything is written, so a refused archive leaves nothing behind.
 */
function escapes(entryPath: string): boolean {
  const p = entryPath.replace(/\\/g, '/');
  return p.startsWith('/') || /^[a-zA-Z]:/.test(p) || p.split('/').includes('..');
}

/**
 * Unpacks a downloaded bundle (its SHA-256 checked already) into `bundlesDir/version`: first every
 * entry is read and refused if it escapes its folder or is anything but a file or a folder (a link
 * could point anywhere); then it is extracted into a temporary folder, its manifest must name
 * `name` and `version`, and the folder takes its place in one rename.
 */
export async function unpackBundle(file: string, bundlesDir: string, name: string, version: string): Promise<string> {
  const bad: string[] = [];
  await list({
    file,
    onReadEntry: (entry) => {
      if (escapes(entry.path)) bad.push(`${entry.path} (outside its folder)`);
      else if (entry.type !== 'File' && entry.type !== 'Directory' && entry.type !== 'OldFile') bad.push(`${entry.path} (${entry.type})`);
    },
  });
  if (bad.length) throw new Refused(`The bundle ${name} ${version} was refused: it holds ${bad.slice(0, 3).join(', ')}.`);
  mkdirSync(bundlesDir, { recursive: true });
  const target = path.join(bundlesDir, version);
  const tmp = path.join(bundlesDir, `.${version}.${process.pid}.tmp`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp);
  try {
    await extract({ file, cwd: tmp, strict: true, preservePaths: false });
    let manifest: { name?: unknown; version?: unknown };
    try {
      manifest = JSON.parse(readFileSync(path.join(tmp, 'manifest.json'), 'utf8'));
    } catch {
      throw new Refused(`The bundle ${name} ${version} has no readable manifest.json.`);
    }
    if (manifest.name !== name || manifest.version !== version) {
      throw new Refused(`The bundle's manifest says ${String(manifest.name)} ${String(manifest.version)}, not ${name} ${version}.`);
    }
    if (!existsSync(path.join(tmp, 'dist', 'cli.mjs'))) throw new Refused(`The bundle ${name} ${version} holds no agent (dist/cli.mjs).`);
    rmSync(target, { recursive: true, force: true });
    renameSync(tmp, target);
    return target;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
