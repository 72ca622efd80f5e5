import { open, stat } from 'node:fs/promises';
import path from 'node:path';

/** What a manifest may weigh: package.json files are small; a huge one is not read whole. */
const MANIFEST_BYTES_MAX = 1024 * 1024;
/** A first line is in the first few kilobytes of a file, or it is not a version line. */
const FIRST_LINE_BYTES = 4096;
const VERSION_TEXT_MAX = 128;

/** Files that hold nothing but a version, like the ones many projects ship. */
const VERSION_FILES = new Set(['version', 'version.txt', 'release', 'release.txt']);
/** Looked for, in this order, when the path is a folder. */
const FOLDER_MANIFESTS = ['package.json', 'VERSION', 'version.txt', 'pyproject.toml', 'Cargo.toml'];

/** A version number as `--version` prints it: `1.2`, `v2.4.10`, `3.11.2rc1`, `1.0.0-beta.2+build.5`. */
const VERSION_IN_LINE = /(?<![\w.])v?(\d+(?:\.\d+)+(?:[-.]?[0-9A-Za-z]+(?:[.-][0-9A-Za-z]+)*)?(?:\+[0-9A-Za-z]+(?:[.-][0-9A-Za-z]+)*)?)(?![\w.])/;
/** `version = "1.2.3"` in a TOML manifest (pyproject.toml, Cargo.toml). */
const TOML_VERSION = /^\s*version\s*=\s*["']([^"'\n]+)["']/m;

/** Why a version could not be read: said to the person on the monitor card. */
export class NoVersion extends Error {}

/**
 * The version a file declares (issue 28, the README's list): `package.json` (and any JSON file) by
 * its `version` field; a `VERSION`-style file by its first line; `pyproject.toml` and `Cargo.toml`
 * by their `version = "…"`; any other text file by the first version number on its first line, the
 * way a `--version` output starts (`fleetlink-agent 1.4.2`, `Python 3.11.2`). A folder is read
 * through the first of those manifests it holds. Throws NoVersion (or a filesystem error) otherwise.
 */
export async function readVersion(p: string): Promise<string> {
  const stats = await stat(p);
  if (stats.isDirectory()) return readFolderVersion(p);
  const name = path.basename(p).toLowerCase();
  if (name.endsWith('.json')) return jsonVersion(p, await readHead(p, MANIFEST_BYTES_MAX, stats.size));
  const head = await readHead(p, name.endsWith('.toml') ? MANIFEST_BYTES_MAX : FIRST_LINE_BYTES, stats.size);
  if (head.includes('\0')) throw new NoVersion(`'${p}' is not a text file.`);
  if (name.endsWith('.toml')) {
    const found = TOML_VERSION.exec(head)?.[1];
    if (!found) throw new NoVersion(`'${p}' has no version = "…" line.`);
    return bounded(found);
  }
  const firstLine = head.replace(/^\uFEFF/, '').split(/\r?\n/).find((l) => l.trim()) ?? '';
  if (VERSION_FILES.has(name)) {
    if (!firstLine.trim()) throw new NoVersion(`'${p}' is empty.`);
    return bounded(firstLine.trim());
  }
  const found = VERSION_IN_LINE.exec(firstLine)?.[1];
  if (!found) throw new NoVersion(`The first line of '${p}' holds no version number.`);
  return bounded(found);
}

async function readFolderVersion(folder: string): Promise<string> {
  for (const name of FOLDER_MANIFESTS) {
    const candidate = path.join(folder, name);
    const exists = await stat(candidate).then((s) => s.isFile(), () => false);
    if (exists) return readVersion(candidate);
  }
  throw new NoVersion(`'${folder}' holds none of ${FOLDER_MANIFESTS.join(', ')}.`);
}

function jsonVersion(p: string, text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new NoVersion(`'${p}' is not valid JSON.`);
  }
  const version = (parsed as { version?: unknown } | null)?.version;
  if (typeof version !== 'string' || !version.trim()) throw new NoVersion(`'${p}' has no "version" field.`);
  return bounded(version.trim());
}

/** The first `max` bytes as text; a manifest bigger than that is refused rather than cut. */
async function readHead(p: string, max: number, size: number): Promise<string> {
  if (max === MANIFEST_BYTES_MAX && size > max) throw new NoVersion(`'${p}' is too big to read a version from.`);
  const file = await open(p, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(max, size));
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await file.close();
  }
}

const bounded = (text: string) => (text.length > VERSION_TEXT_MAX ? `${text.slice(0, VERSION_TEXT_MAX - 1)}…` : text);
