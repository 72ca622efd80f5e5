import { createReadStream, createWriteStream } from 'node:fs';
import { chown, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type FileChangeResult, type FileFetchRequest, type FileSendReply, type FileSendRequest } from '@fleetlink/contract';
import { Refused } from '../refused.js';
import { getBlob, putBlob, type BlobEndpoint } from './blob-http.js';
import { devicePath, entryName, existsAlready, fsRefusal } from './device-path.js';
import { fileEntry } from './file-entry.js';

const CHUNK = 1 << 20;

/**
 * `file.send` and `file.fetch` (issue 27): the bytes go over HTTP between the file and the
 * console's blob store, never through MQTT, as streams, so memory stays flat for any size. A
 * fetched file is written under a temporary name in its folder and renamed only once all of it is
 * there: a broken transfer leaves nothing at the destination. `transfer.cancel` stops either.
 */
export class FileTransfers {
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly endpoint: () => BlobEndpoint) {}

  async send(req: FileSendRequest): Promise<FileSendReply> {
    const file = devicePath(req.path);
    const found = await stat(file).catch((err) => {
      throw fsRefusal(err, file, 'read');
    });
    if (!found.isFile()) throw new Refused(`'${file}' is not a file.`);
    const size = found.size;
    return this.track(req.transferId, async (signal) => {
      const source = size ? createReadStream(file, { start: 0, end: size - 1, highWaterMark: CHUNK }) : Readable.from([]);
      const body = exactly(size);
      // Joined by pipeline, not pipe: a transfer that fails closes the file too.
      pipeline(source, body).catch(() => {});
      try {
        await putBlob(this.endpoint(), req.url, body, size, signal);
      } catch (err) {
        throw transferFailure(err, signal, file, 'read');
      }
      return { size };
    });
  }

  async fetch(req: FileFetchRequest): Promise<FileChangeResult> {
    const folder = devicePath(req.path);
    const target = path.join(folder, entryName(req.name));
    const existing = await stat(target).catch(() => undefined);
    if (existing && !req.overwrite) throw existsAlready(req.name, folder);
    if (existing?.isDirectory()) throw new Refused(`'${req.name}' is a folder in '${folder}': a file cannot replace it.`);
    if (!/^[\w-]{1,64}$/.test(req.transferId)) throw new Refused('The transfer id is not valid.');
    const partial = path.join(folder, `.fleetlink-${req.transferId}.part`);
    return this.track(req.transferId, async (signal) => {
      try {
        const res = await getBlob(this.endpoint(), req.url, signal);
        // A replaced file keeps its permissions (and, for an agent running as root, its owner).
        const sink = createWriteStream(partial, { flags: 'wx', mode: existing ? existing.mode & 0o7777 : 0o666, highWaterMark: CHUNK });
        await pipeline(res, sink);
        if (req.size !== null && sink.bytesWritten !== req.size) throw new Refused(`The file arrived incomplete (${sink.bytesWritten} of ${req.size} bytes): try again.`);
        if (existing && process.getuid?.() === 0) await chown(partial, existing.uid, existing.gid);
        if (!req.overwrite && (await stat(target).then(() => true, () => false))) throw existsAlready(req.name, folder);
        await rename(partial, target);
      } catch (err) {
        await rm(partial, { force: true });
        throw transferFailure(err, signal, folder, 'create');
      }
      return { entry: await fileEntry(target) };
    });
  }

  /** Stops a running transfer; its request then fails, and it leaves nothing behind. */
  cancel(transferId: string): void {
    this.running.get(transferId)?.abort();
  }

  private async track<T>(transferId: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    this.running.set(transferId, controller);
    try {
      return await work(controller.signal);
    } finally {
      this.running.delete(transferId);
    }
  }
}

/**
 * Passes exactly `size` bytes: the size the console was told (its Content-Length). A file that
 * grows meanwhile is sent as it was when the transfer began; one that shrinks fails the transfer.
 */
function exactly(size: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      done(null, chunk);
    },
    flush(done) {
      done(seen < size ? new Refused('The file got shorter while it was being sent: try again.') : null);
    },
  });
}

function transferFailure(err: unknown, signal: AbortSignal, p: string, doing: 'read' | 'create'): Error {
  if (signal.aborted) return new Refused('The transfer was cancelled.');
  if (err instanceof Refused) return err;
  const code = (err as NodeJS.ErrnoException).code ?? '';
  // The network's errors, not the filesystem's.
  if (/^(ECONN|EPIPE|ETIMEDOUT|EHOST|ENETUNREACH|EAI_|ERR_STREAM_PREMATURE_CLOSE)/.test(code) || !code) {
    return new Refused(`The transfer broke off: ${(err as Error).message}`);
  }
  return fsRefusal(err, p, doing);
}
