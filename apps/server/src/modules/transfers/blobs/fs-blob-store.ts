import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkedKey, sizeLimit, type BlobStore } from './blob-store.js';
import { GrowingBlob } from './growing-blob.js';

/** Ends the name of a blob still being written: only a finished one has its key as its name. */
const PARTIAL = '.part';

/**
 * A write stops its partial file itself when it fails; one a console was killed in the middle of
 * stays behind, and nothing else would ever take it (the bundles' store is not swept). A write that
 * is alive touches its file at least every few seconds (the slow-request limit cuts one slower), so
 * one untouched for an hour is abandoned, even where another console shares the folder.
 */
const ABANDONED_AFTER_MS = 60 * 60_000;

async function removeAbandonedWrites(dir: string): Promise<void> {
  const before = Date.now() - ABANDONED_AFTER_MS;
  for (const name of await readdir(dir)) {
    if (!name.endsWith(PARTIAL)) continue;
    const file = path.join(dir, name);
    const found = await stat(file).catch(() => undefined);
    if (found?.isFile() && found.mtimeMs < before) await rm(file, { force: true });
  }
}

/** Blobs as files in one folder (the default: `DATA_DIR/blobs`). */
export class FsBlobStore implements BlobStore {
  /**
   * A blob being written is followed only by the console writing it; where other consoles share
   * the folder, one of them may be asked for it meanwhile, so every console waits for the whole.
   */
  readonly followsWrites: boolean;

  private constructor(
    private readonly dir: string,
    shared: boolean,
  ) {
    this.followsWrites = !shared;
  }

  /** `shared`: other consoles use the folder too (BLOB_DIR). */
  static async open(dir: string, opts: { shared?: boolean } = {}): Promise<FsBlobStore> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await removeAbandonedWrites(dir);
    return new FsBlobStore(dir, opts.shared ?? false);
  }

  /** Blobs being written now, which `read` follows as they grow. */
  private readonly growing = new Map<string, GrowingBlob>();

  async write(key: string, source: Readable, maxBytes: number): Promise<number> {
    const target = this.file(key);
    const partial = `${target}.${randomBytes(6).toString('hex')}${PARTIAL}`;
    const limit = sizeLimit(maxBytes);
    const sink = createWriteStream(partial, { flags: 'wx', mode: 0o600, highWaterMark: 1 << 20 });
    const growing = new GrowingBlob(partial, () => sink.bytesWritten);
    this.growing.set(key, growing);
    try {
      await pipeline(source, limit, sink);
      await rename(partial, target);
      growing.complete(target);
    } catch (err) {
      // A write that fails at once (a refused bundle's first chunk) fails before the file is even
      // open: it is removed once the stream has opened and closed it, or it would stay behind.
      if (!sink.closed) await new Promise<void>((resolve) => sink.once('close', () => resolve()));
      await rm(partial, { force: true });
      // Only now the reader fails: the writer's own error reaches its caller first (a reader's
      // failure is the consequence, and comes back by a longer way).
      growing.fail(err as Error);
      throw err;
    } finally {
      this.growing.delete(key);
    }
    return limit.bytes();
  }

  async read(key: string): Promise<{ stream: Readable; size?: number } | undefined> {
    const growing = this.growing.get(checkedKey(key));
    if (growing) return { stream: growing.follow() };
    const file = this.file(key);
    const found = await stat(file).catch(() => undefined);
    if (!found?.isFile()) return undefined;
    return { stream: createReadStream(file, { highWaterMark: 1 << 20 }), size: found.size };
  }

  async remove(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }

  async removeOlderThan(before: Date): Promise<number> {
    let removed = 0;
    for (const name of await readdir(this.dir)) {
      const file = path.join(this.dir, name);
      const found = await stat(file).catch(() => undefined);
      if (!found?.isFile() || found.mtime >= before) continue;
      await rm(file, { force: true });
      removed++;
    }
    return removed;
  }

  private file(key: string): string {
    return path.join(this.dir, checkedKey(key));
  }
}
