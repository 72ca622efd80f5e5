import { randomUUID } from 'node:crypto';
import { readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../broker/broker.test-support.js';
import { BlobTooLarge } from './blob-store.js';
import { FsBlobStore } from './fs-blob-store.js';

describe('FsBlobStore', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  const open = async () => {
    const dir = tempDir('fleetlink-blobs-');
    dirs.push(dir);
    return { dir, store: await FsBlobStore.open(dir) };
  };

  it('stores, reads and removes a blob under its key', async () => {
    const { dir, store } = await open();
    const key = randomUUID();
    expect(await store.write(key, Readable.from([Buffer.from('hello '), Buffer.from('world')]), 100)).toBe(11);
    expect(readdirSync(dir)).toEqual([key]);
    const blob = await store.read(key);
    expect(blob?.size).toBe(11);
    expect(Buffer.concat(await blob!.stream.toArray()).toString()).toBe('hello world');
    await store.remove(key);
    expect(await store.read(key)).toBeUndefined();
  });

  it('in a folder consoles share (BLOB_DIR), shows another console a blob only once it is whole', async () => {
    const dir = tempDir('fleetlink-shared-blobs-');
    dirs.push(dir);
    const [writer, reader] = [await FsBlobStore.open(dir, { shared: true }), await FsBlobStore.open(dir, { shared: true })];
    expect([writer.followsWrites, reader.followsWrites, (await FsBlobStore.open(dir)).followsWrites]).toEqual([false, false, true]);
    const source = new PassThrough();
    const key = randomUUID();
    const writing = writer.write(key, source, 1000);
    source.write(Buffer.from('half '));
    await new Promise((r) => setTimeout(r, 20));
    expect(await reader.read(key)).toBeUndefined();
    source.end(Buffer.from('and whole'));
    expect(await writing).toBe(14);
    const blob = await reader.read(key);
    expect(blob?.size).toBe(14);
    expect(Buffer.concat(await blob!.stream.toArray()).toString()).toBe('half and whole');
  });

  it('keeps nothing of a blob past its limit, or of one whose source fails', async () => {
    const { dir, store } = await open();
    await expect(store.write(randomUUID(), Readable.from([Buffer.alloc(60), Buffer.alloc(60)]), 100)).rejects.toBeInstanceOf(BlobTooLarge);
    const failing = new Readable({ read() {} });
    failing.push(Buffer.alloc(10));
    setTimeout(() => failing.destroy(new Error('connection reset')), 10);
    await expect(store.write(randomUUID(), failing, 100)).rejects.toThrow('connection reset');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('lets a reader follow a blob while it is written, to its end or its failure', async () => {
    const { store } = await open();
    const source = new PassThrough();
    const key = randomUUID();
    const writing = store.write(key, source, 1000);
    source.write(Buffer.from('first '));
    const growing = await store.read(key);
    expect(growing?.size).toBeUndefined();
    const read = growing!.stream.toArray();
    setTimeout(() => source.end(Buffer.from('and last')), 20);
    expect(await writing).toBe(14);
    expect(Buffer.concat(await read).toString()).toBe('first and last');
    expect((await store.read(key))?.size).toBe(14);

    const failing = new PassThrough();
    const broken = randomUUID();
    const failed = store.write(broken, failing, 1000).catch((err: Error) => err);
    failing.write(Buffer.from('half'));
    const follower = (await store.read(broken))!.stream.toArray().catch((err: Error) => err);
    setTimeout(() => failing.destroy(new Error('connection reset')), 20);
    expect(await failed).toBeInstanceOf(Error);
    expect(((await follower) as Error).message).toBe('connection reset');
    expect(await store.read(broken)).toBeUndefined();
  });

  it('refuses a key that is not a transfer id', async () => {
    const { store } = await open();
    await expect(store.write('../../etc/passwd', Readable.from([]), 1)).rejects.toThrow('Not a blob key');
  });

  it('removes what is older than a moment, finished or left partial', async () => {
    const { dir, store } = await open();
    const [old, fresh] = [randomUUID(), randomUUID()];
    await store.write(old, Readable.from([Buffer.from('o')]), 10);
    await store.write(fresh, Readable.from([Buffer.from('f')]), 10);
    const partial = path.join(dir, `${randomUUID()}.abc.part`);
    writeFileSync(partial, 'p');
    const dayAgo = new Date(Date.now() - 86_400_000);
    utimesSync(path.join(dir, old), dayAgo, dayAgo);
    utimesSync(partial, dayAgo, dayAgo);
    expect(await store.removeOlderThan(new Date(Date.now() - 3_600_000))).toBe(2);
    expect(readdirSync(dir)).toEqual([fresh]);
  });
});
