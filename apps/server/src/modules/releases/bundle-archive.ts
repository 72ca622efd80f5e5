import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { Transform } from 'node:stream';
import {
  BUNDLE_MANIFEST,
  BUNDLE_MANIFEST_MAX_BYTES,
  BUNDLE_NAME_MAX,
  BUNDLE_NAME_PATTERN,
  SEMVER_PATTERN,
  VERSION_MAX,
  type BundleManifest,
} from '@fleetlink/contract';
import { Parser, type ReadEntry } from 'tar';

/** Why an upload is not a bundle, in words for the person who sent it. */
export class BadBundle extends Error {}

/** Entry types a bundle may hold: files and folders (and the tar's own metadata headers). */
const ALLOWED_TYPES = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory']);
const LINK_TYPES = new Set(['Link', 'SymbolicLink']);

/**
 * Reads an upload once, as it streams to the bundle store: a Transform that passes the bytes on
 * while it hashes them and parses them as a tar archive (gzipped or not). The first problem fails
 * the stream at once, so a refused upload stops there and the store keeps nothing: an entry whose
 * path escapes the archive (zip-slip) or is absolute, a link, a device or pipe, a manifest that is
 * too large or not valid. `result()` answers, once the stream has ended, the manifest and SHA-256,
 * or why the whole was not a bundle (not an archive, truncated, no manifest).
 */
export class BundleArchive {
  private readonly hash = createHash('sha256');
  private readonly parser: Parser;
  private problem?: BadBundle;
  private manifest?: BundleManifest;
  private manifestSeen = false;
  private entries = 0;
  private complete = false;
  private readonly parsed: Promise<void>;
  readonly stream: Transform;

  constructor() {
    this.parser = new Parser({
      onwarn: (_code: string, message: string) => this.damaged(message),
      onReadEntry: (entry: ReadEntry) => this.entry(entry),
    });
    // An archive ends with two empty blocks: without them, it was cut short (a gzip stream cut
    // short ends without a word from zlib).
    this.parser.on('eof', () => (this.complete = true));
    this.parsed = new Promise<void>((resolve) => {
      this.parser.on('end', resolve);
      this.parser.on('error', (err: Error) => {
        this.damaged(err.message);
        resolve();
      });
    });
    this.stream = new Transform({
      transform: (chunk: Buffer, _enc, done) => {
        this.hash.update(chunk);
        this.parser.write(chunk);
        done(this.problem ?? null, chunk);
      },
      flush: (done) => {
        this.parser.end();
        void this.parsed.then(() => done(this.problem ?? null));
      },
    });
  }

  /** The manifest and the archive's SHA-256 (hex) once all of it went through; throws BadBundle. */
  result(): { manifest: BundleManifest; sha256: string } {
    if (this.problem) throw this.problem;
    if (!this.complete) throw new BadBundle(this.entries ? 'The archive is damaged: it was cut short.' : 'The file is not a .tar.gz archive.');
    if (!this.manifestSeen) throw new BadBundle(`The archive has no ${BUNDLE_MANIFEST} at its top level.`);
    return { manifest: this.manifest!, sha256: this.hash.digest('hex') };
  }

  private entry(entry: ReadEntry): void {
    const path = entry.path;
    this.entries++;
    if (this.problem) return void entry.resume();
    if (LINK_TYPES.has(entry.type)) return this.refuse(entry, `The archive's entry "${path}" is a link: a bundle may hold only files and folders.`);
    if (!ALLOWED_TYPES.has(entry.type)) return this.refuse(entry, `The archive's entry "${path}" is a ${entry.type}: a bundle may hold only files and folders.`);
    if (escapes(path)) return this.refuse(entry, `The archive's entry "${path}" points outside the archive.`);
    if (posix.normalize(path) !== BUNDLE_MANIFEST || entry.type === 'Directory') return void entry.resume();
    if (this.manifestSeen) return this.refuse(entry, `The archive holds ${BUNDLE_MANIFEST} twice.`);
    this.manifestSeen = true;
    if (entry.size > BUNDLE_MANIFEST_MAX_BYTES) return this.refuse(entry, `${BUNDLE_MANIFEST} is larger than ${BUNDLE_MANIFEST_MAX_BYTES / 1024} KiB.`);
    const parts: Buffer[] = [];
    entry.on('data', (b: Buffer) => parts.push(b));
    entry.on('end', () => this.readManifest(Buffer.concat(parts).toString('utf8')));
  }

  private readManifest(text: string): void {
    let json: { name?: unknown; version?: unknown } | null;
    try {
      json = JSON.parse(text);
    } catch {
      return this.fail(`${BUNDLE_MANIFEST} is not valid JSON.`);
    }
    if (typeof json !== 'object' || json === null) return this.fail(`${BUNDLE_MANIFEST} must be a JSON object with a name and a version.`);
    const { name, version } = json;
    if (name === undefined) return this.fail(`${BUNDLE_MANIFEST} has no name.`);
    if (typeof name !== 'string' || name.length > BUNDLE_NAME_MAX || !BUNDLE_NAME_PATTERN.test(name)) {
      return this.fail(`The manifest's name ${JSON.stringify(name)} is not valid: use lowercase letters, digits, '.', '_' and '-' (at most ${BUNDLE_NAME_MAX}).`);
    }
    if (version === undefined) return this.fail(`${BUNDLE_MANIFEST} has no version.`);
    if (typeof version !== 'string' || version.length > VERSION_MAX || !SEMVER_PATTERN.test(version)) {
      return this.fail(`The manifest's version ${JSON.stringify(version)} is not a semantic version such as 1.2.3.`);
    }
    this.manifest = { name, version };
  }

  private refuse(entry: ReadEntry, message: string): void {
    entry.resume();
    this.fail(message);
  }

  /** Before any entry, the file is no archive at all; after some, a damaged one (cut short, corrupt). */
  private damaged(detail: string): void {
    this.fail(this.entries ? `The archive is damaged: ${detail}.` : 'The file is not a .tar.gz archive.');
  }

  private fail(message: string): void {
    this.problem ??= new BadBundle(message);
  }
}

/** Absolute, or climbing above the archive's root at any point ('a/../../b'), or a Windows drive. */
function escapes(path: string): boolean {
  if (path.startsWith('/') || path.startsWith('\\') || /^[a-zA-Z]:/.test(path)) return true;
  let depth = 0;
  for (const part of path.split(/[\\/]/)) {
    if (part === '..') depth--;
    else if (part !== '.' && part !== '') depth++;
    if (depth < 0) return true;
  }
  return false;
}
