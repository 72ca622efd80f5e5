import { Transform, type Readable } from 'node:stream';

/**
 * Where a transfer's bytes wait between the two sides (DESIGN §7): files under `DATA_DIR/blobs`, or
 * an S3-compatible bucket several consoles share. Keys are transfer ids the console made, never a
 * name or path from a device or a browser.
 */
export interface BlobStore {
  /**
   * Whether `read` can follow a blob while `write` is still storing it (the same console's files):
   * an upload's two hops then overlap. Not across consoles (a shared bucket shows a blob only
   * once it is complete).
   */
  readonly followsWrites: boolean;
  /**
   * Stores `source` under `key`, refusing it past `maxBytes` (BlobTooLarge). Nothing is left under
   * `key`, nor anywhere else, unless all of it arrived. Answers its size.
   */
  write(key: string, source: Readable, maxBytes: number): Promise<number>;
  /**
   * The blob's bytes and size, or undefined when there is none. One still being written (see
   * followsWrites) has no size yet: its stream ends when the writing does, and fails if it fails.
   */
  read(key: string): Promise<{ stream: Readable; size?: number } | undefined>;
  /** Deletes the blob; nothing happens when there is none. */
  remove(key: string): Promise<void>;
  /** Deletes every blob, and every unfinished one, last changed before `before`; answers how many. */
  removeOlderThan(before: Date): Promise<number>;
}

export class BlobTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`The blob is larger than ${maxBytes} bytes.`);
  }
}

/** Passes bytes through until more than `maxBytes` have come, then fails the stream. */
export function sizeLimit(maxBytes: number): Transform & { bytes: () => number } {
  let seen = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > maxBytes) done(new BlobTooLarge(maxBytes));
      else done(null, chunk);
    },
  });
  return Object.assign(limit, { bytes: () => seen });
}

const KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A key is a transfer id: anything else is the console's own bug, never a name to store under. */
export function checkedKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`Not a blob key: ${JSON.stringify(key)}`);
  return key;
}
