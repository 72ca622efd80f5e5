import { open, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';

const CHUNK = 1 << 20;
/** How often a reader that has caught up looks for more: the writer's stream reports no progress events. */
const POLL_MS = 2;

/**
 * A blob still being written to a file in this process, which a reader may follow as it grows: the
 * agent then fetches an upload while the browser is still sending it, so the two hops overlap
 * instead of taking turns. The reader ends when the writer ends, and fails when it fails.
 */
export class GrowingBlob {
  private ended?: { ok: true } | { ok: false; error: Error };
  private readonly wakers = new Set<() => void>();

  constructor(
    /** Where the bytes are now: the partial file, then (once complete) the blob's own. */
    private path: string,
    /** Bytes on disk so far (fs.WriteStream's `bytesWritten`). */
    private readonly written: () => number,
  ) {}

  complete(finalPath: string): void {
    this.path = finalPath;
    this.end({ ok: true });
  }

  fail(error: Error): void {
    this.end({ ok: false, error });
  }

  /** The blob from its first byte, ending with the writer. */
  follow(): Readable {
    let file: FileHandle | undefined;
    let position = 0;
    const blob = this;
    return new Readable({
      highWaterMark: CHUNK,
      async read() {
        try {
          file ??= await blob.open();
          for (;;) {
            const ended = blob.ended;
            if (ended && !ended.ok) throw ended.error;
            const available = blob.written() - position;
            if (available > 0) {
              const buffer = Buffer.allocUnsafe(Math.min(available, CHUNK));
              const { bytesRead } = await file.read(buffer, 0, buffer.length, position);
              position += bytesRead;
              this.push(buffer.subarray(0, bytesRead));
              return;
            }
            // All that was written has been read: the end, unless more is coming.
            if (ended) return void this.push(null);
            await blob.next();
          }
        } catch (err) {
          this.destroy(err as Error);
        }
      },
      destroy(err, done) {
        void (file?.close() ?? Promise.resolve()).catch(() => {}).then(() => done(err));
      },
    });
  }

  /**
   * The file, wherever it is now: the writer creates it a moment after it begins, and renames it
   * when it is done, maybe between a look and an open.
   */
  private async open(): Promise<FileHandle> {
    for (;;) {
      try {
        return await open(this.path, 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        const ended = this.ended;
        if (ended && !ended.ok) throw ended.error;
        if (ended) return open(this.path, 'r');
        await this.next();
      }
    }
  }

  private next(): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, POLL_MS);
      this.wakers.add(wake);
    });
  }

  private end(how: NonNullable<GrowingBlob['ended']>) {
    this.ended = how;
    for (const wake of [...this.wakers]) wake();
  }
}
