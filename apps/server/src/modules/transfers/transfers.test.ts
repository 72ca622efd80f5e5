import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { agentBlobUrl, fileChangeResultSchema } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  embeddedSetup,
  enrollByHand,
  memberDevice,
  mosquittoBin,
  mosquittoSetup,
  onlineMemberDevice,
  tempDir,
  tearDown,
  USER_EMAIL,
  waitFor,
  type AgentProcess,
  type MessagingSetup,
} from '../broker/broker.test-support.js';
import { expectError } from '../../testing/expect-error.js';
import { DeviceCredentials } from '../enrollment/credentials.js';
import { startS3, type S3Server } from './s3.test-support.js';
import { TransfersRepository } from './transfers.repository.js';

const bin = mosquittoBin();
const MiB = 1024 * 1024;
/** Small enough to cross in a test, big enough that a transfer cut in the middle is really in the middle. */
const LIMIT = 600 * MiB;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** `total` bytes of a repeating pattern, made as they are read: no 600 MB in the test's memory. */
function patternStream(total: number, chunk = Buffer.alloc(MiB, 'fleetlink ')): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      controller.enqueue(chunk.subarray(0, n));
    },
  });
}

/** A multipart body as a browser sends it, with the file's bytes streamed after the fields. */
function multipartStream(fields: Record<string, string>, filename: string, file: ReadableStream<Uint8Array>): { body: ReadableStream<Uint8Array>; contentType: string } {
  const boundary = `----fleetlink${randomBytes(8).toString('hex')}`;
  const head =
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const enc = new TextEncoder();
  const reader = file.getReader();
  let stage = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (stage === 0) {
        stage = 1;
        return controller.enqueue(enc.encode(head));
      }
      if (stage === 1) {
        const { done, value } = await reader.read();
        if (!done) return controller.enqueue(value);
        stage = 2;
        controller.enqueue(enc.encode(tail));
        return controller.close();
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Issue 27: files to and from a real agent through the blob store, over a real broker: contents
 * arrive intact both ways, URLs serve once and expire, limits and names are enforced, a transfer cut
 * in the middle leaves no file and no blob, and each transfer is in the audit trail.
 */
function transferSuite(setup: (env: Record<string, string>) => Promise<MessagingSetup>, store: 'files' | 's3' = 'files') {
  let s: MessagingSetup;
  let s3: S3Server | undefined;
  let admin: string;
  let user: string;
  let guest: string;
  let device: { id: string; key: string };
  let folder: string;
  const agents: AgentProcess[] = [];
  const dirs: string[] = [];

  /** The blobs in the store, finished or not (a file's is `<id>.<random>.part` while it is written). */
  const blobs = async (): Promise<string[]> => {
    if (s3) return s3.blobs();
    const dir = path.join(s.tc.dataDir, 'blobs');
    return existsSync(dir) ? readdirSync(dir) : [];
  };
  const noBlobs = () => waitFor(async () => (await blobs()).length === 0, 10_000, 'no blob left');
  /** Whether an agent is sending a download now (it has claimed its URL, and the blob is not gone). */
  const agentSending = async () =>
    (await s.tc.database.db.execute(sql`select 1 from transfers where kind = 'DOWNLOAD' and written_at is not null and removed_at is null`)).rows.length > 0;

  const upload = (into: string, name: string, data: Blob, opts: { token?: string; overwrite?: boolean; signal?: AbortSignal } = {}) => {
    const form = new FormData();
    form.append('path', into);
    if (opts.overwrite) form.append('overwrite', 'true');
    form.append('file', data, name);
    return s.tc.api(`/api/upload/${device.id}`, { method: 'POST', token: opts.token ?? admin, body: form, signal: opts.signal });
  };
  const streamUpload = (into: string, name: string, file: ReadableStream<Uint8Array>, signal?: AbortSignal) => {
    const { body, contentType } = multipartStream({ path: into }, name, file);
    return s.tc.api(`/api/upload/${device.id}`, { method: 'POST', token: admin, body, headers: { 'content-type': contentType }, signal, duplex: 'half' } as RequestInit);
  };
  const requestDownload = (p: string, token = user) => s.tc.api(`/api/request-download/${device.id}?${new URLSearchParams({ path: p })}`, { token });
  const downloadLink = async (p: string, token = user) => {
    const res = await requestDownload(p, token);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const url = await res.text();
    expect(url).toMatch(/^\/api\/download\/[0-9a-f-]{36}\?token=[\w-]{43}$/);
    return url;
  };
  const auditOf = async (kind: string) => {
    const res = await s.tc.api(`/api/audit?${new URLSearchParams({ kind })}`, { token: admin });
    expect(res.status).toBe(200);
    return ((await res.json()) as { entries: { details: Record<string, unknown>; outcome: string; error: string | null; username: string }[] }).entries;
  };

  beforeAll(async () => {
    if (store === 's3') s3 = await startS3();
    s = await setup(s3?.env ?? {});
    ({ admin, user, guest, device } = await onlineMemberDevice(s, 'transfers', { agents, dirs }));
    folder = tempDir('fleetlink-transfers-');
    dirs.push(folder);
  });

  afterAll(async () => {
    await tearDown(s, { agents, dirs });
    await s3?.close();
  });

  it('uploads a file and downloads it again with the same SHA-256, once, with its own name', async () => {
    const data = randomBytes(20 * MiB + 123);
    const name = 'résumé "final".pdf';
    const res = await upload(folder, name, new Blob([data]));
    expect(res.status, await res.clone().text()).toBe(201);
    const { entry } = fileChangeResultSchema.parse(await res.json());
    expect(entry).toMatchObject({ name, path: path.join(folder, name), size: data.length, isFolder: false });
    expect(sha256(readFileSync(path.join(folder, name)))).toBe(sha256(data));
    expect(readdirSync(folder)).toEqual([name]);
    expect(await blobs()).toEqual([]);

    const url = await downloadLink(path.join(folder, name));
    // While the link waits, the blob is stored under the transfer's id, never under the device's name.
    expect(await blobs()).toEqual([url.split('/')[3]!.split('?')[0]]);
    expect((await blobs())[0]).toMatch(UUID);
    const got = await fetch(`${s.tc.url}${url}`);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="r_sum_ _final_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.pdf`);
    expect(got.headers.get('content-length')).toBe(String(data.length));
    expect(got.headers.get('cache-control')).toBe('no-store');
    expect(sha256(Buffer.from(await got.arrayBuffer()))).toBe(sha256(data));
    await noBlobs();

    const again = await fetch(`${s.tc.url}${url}`);
    expect((await expectError(again, 410)).message).toBe('This download link was used already or has expired: start the download again from the Storage page.');

    // One entry each (the suite's first transfers): the second, refused use of the link is no new download.
    const downloads = await auditOf('file.download');
    expect(downloads).toHaveLength(1);
    expect(downloads[0]).toMatchObject({ outcome: 'ok', username: USER_EMAIL, details: { path: path.join(folder, name), size: data.length } });
    const uploads = await auditOf('file.upload');
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatchObject({ outcome: 'ok', username: ADMIN_EMAIL, details: { path: folder, name, size: data.length } });
  });

  it('refuses a download link after it expired, and an agent URL for another device or without its account', async () => {
    writeFileSync(path.join(folder, 'late.txt'), 'late');
    const url = await downloadLink(path.join(folder, 'late.txt'));
    const id = url.split('/')[3]!.split('?')[0]!;
    await s.tc.database.db.execute(sql`update transfers set read_expires_at = now() - interval '1 second' where id = ${id}`);
    expect((await fetch(`${s.tc.url}${url}`)).status).toBe(410);
    // The sweep takes the blob nobody fetched.
    expect(await blobs()).toEqual([id]);
    expect(await s.tc.messaging!.blobSweeper.sweep()).toBe(1);
    expect(await blobs()).toEqual([]);

    // The token alone does not open an agent URL: the device's own account must come with it.
    const agentUrl = url.replace('/api/download/', '/api/agent/blob/');
    expect((await expectError(await fetch(`${s.tc.url}${agentUrl}`), 401)).message).toBe('The device credentials are missing or not valid.');
    const put = await fetch(`${s.tc.url}${agentUrl}`, { method: 'PUT', body: 'x', headers: { authorization: `Basic ${Buffer.from(`${device.id}:wrong`).toString('base64')}` } });
    expect(put.status).toBe(401);
  });

  it("binds an upload's file.fetch URL to its device: the token alone, or another device's account, gets nothing", async () => {
    const repo = new TransfersRepository(s.tc.database.db);
    const token = randomBytes(32).toString('base64url');
    const id = randomUUID();
    const expires = new Date(Date.now() + 60_000);
    await repo.create({ id, deviceId: device.id, kind: 'UPLOAD', path: '/tmp', name: 'x', readTokenHash: createHash('sha256').update(token).digest('hex'), readExpiresAt: expires });
    const url = `${s.tc.url}${agentBlobUrl(id, token)}`;
    expect((await expectError(await fetch(url), 401)).message).toBe('The device credentials are missing or not valid.');
    const other = await memberDevice(s.tc.database.db, 'another device');
    const otherAccount = await enrollByHand(s.tc, other);
    const asOther = await fetch(url, { headers: { authorization: `Basic ${Buffer.from(`${otherAccount.username}:${otherAccount.password}`).toString('base64')}` } });
    expect(asOther.status).toBe(403);
    // Neither try used it up: the device it is for still can (the blob is not stored here, so 410).
    const own = await (await DeviceCredentials.open(s.tc.database.db, s.tc.box)).current(device.id);
    const asOwn = await fetch(url, { headers: { authorization: `Basic ${Buffer.from(`${own!.username}:${own!.password}`).toString('base64')}` } });
    expect(asOwn.status).toBe(410);
  });

  it('sweeps only what nobody will read: not a download the agent is still sending after its URL expired', async () => {
    const repo = new TransfersRepository(s.tc.database.db);
    const past = new Date(Date.now() - 60_000);
    const [sending, unclaimed] = [randomUUID(), randomUUID()];
    const row = { deviceId: device.id, kind: 'DOWNLOAD' as const, path: '/x', name: 'x', writeTokenHash: 'h', writeExpiresAt: past };
    await repo.create({ ...row, id: sending, writtenAt: past });
    await repo.create({ ...row, id: unclaimed });
    const stale = await repo.stale(new Date(), new Date(Date.now() - 86_400_000));
    expect(stale).toContain(unclaimed);
    expect(stale).not.toContain(sending);
    await Promise.all([repo.removed(sending), repo.removed(unclaimed)]);
  });

  it('stops past UPLOAD_MAX_BYTES with 413, whether the size is declared or not, and keeps nothing', async () => {
    // A declared size past the limit is refused before the body is read: none of it is sent here.
    const declared = await new Promise<{ status: number; body: { message: string } }>((resolve, reject) => {
      const req = http.request(`${s.tc.url}/api/upload/${device.id}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'multipart/form-data; boundary=x', 'content-length': LIMIT + MiB },
      });
      req.on('response', async (res) => {
        const text = Buffer.concat(await res.toArray()).toString();
        req.destroy();
        resolve({ status: res.statusCode!, body: JSON.parse(text) });
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(declared).toMatchObject({ status: 413, body: { message: 'The file is larger than the upload limit of 600 MB.' } });
    const streamed = await streamUpload(folder, 'big.bin', patternStream(LIMIT + 1));
    expect((await expectError(streamed, 413)).message).toBe('The file is larger than the upload limit of 600 MB.');
    expect(existsSync(path.join(folder, 'big.bin'))).toBe(false);
    await noBlobs();
    const [entry] = await auditOf('file.upload');
    expect(entry).toMatchObject({ outcome: 'error', details: { path: folder, name: 'big.bin' } });
  });

  it('replaces a file of the same name only when told to', async () => {
    writeFileSync(path.join(folder, 'same.txt'), 'old');
    const refused = await upload(folder, 'same.txt', new Blob(['new']));
    expect(await expectError(refused, 409)).toMatchObject({ code: 'CONFLICT', message: `'same.txt' exists already in '${folder}'.` });
    expect(readFileSync(path.join(folder, 'same.txt'), 'utf8')).toBe('old');
    const replaced = await upload(folder, 'same.txt', new Blob(['new']), { overwrite: true });
    expect(replaced.status).toBe(201);
    expect(readFileSync(path.join(folder, 'same.txt'), 'utf8')).toBe('new');
    expect(readdirSync(folder).filter((n) => n.endsWith('.part'))).toEqual([]);
  });

  it('takes names as names: a path in the file name is refused, and a device path with .. too', async () => {
    const refused = await upload(folder, '../../etc/passwd', new Blob(['root::0:0']));
    expect(await expectError(refused, 400)).toMatchObject({ message: 'Name cannot contain / or \\.', fields: { file: 'Name cannot contain / or \\.' } });
    const climbing = await requestDownload(`${folder}/../../etc/passwd`);
    expect((await expectError(climbing, 422)).message).toBe(`The path '${folder}/../../etc/passwd' contains '..': name the folder itself.`);
    expect((await expectError(await requestDownload(folder), 422)).message).toBe(`'${folder}' is not a file.`);
    expect((await expectError(await requestDownload(path.join(folder, 'nothing')), 404)).message).toBe(`'${path.join(folder, 'nothing')}' does not exist.`);
    expect(await blobs()).toEqual([]);
  });

  it('lets USER members download but not upload, and guests neither', async () => {
    expect((await expectError(await upload(folder, 'u.txt', new Blob(['u']), { token: user }), 403)).code).toBe('FORBIDDEN');
    expect((await expectError(await upload(folder, 'g.txt', new Blob(['g']), { token: guest }), 403)).code).toBe('FORBIDDEN');
    expect((await expectError(await requestDownload(path.join(folder, 'same.txt'), guest), 403)).code).toBe('FORBIDDEN');
    expect(existsSync(path.join(folder, 'u.txt'))).toBe(false);
  });

  it('leaves no file and no blob when an upload is cut while the device fetches it', async () => {
    const abort = new AbortController();
    const going = streamUpload(folder, 'cut.bin', patternStream(500 * MiB), abort.signal).catch((err: Error) => err);
    // Cut once the agent is writing its temporary file: the console tells it to stop.
    await waitFor(() => readdirSync(folder).some((n) => n.endsWith('.part')), 30_000, 'the agent fetching');
    abort.abort();
    expect(await going).toBeInstanceOf(Error);
    await waitFor(() => !readdirSync(folder).some((n) => n.endsWith('.part')), 10_000, 'the partial file removed');
    await noBlobs();
    expect(existsSync(path.join(folder, 'cut.bin'))).toBe(false);
    await waitFor(async () => (await auditOf('file.upload'))[0]?.details.name === 'cut.bin' || undefined, 10_000, 'the cut upload audited');
    const [entry] = await auditOf('file.upload');
    expect(entry!.outcome).toBe('error');
    // Cut while the file still arrived (the agent follows it) or once it was all in the store (S3).
    expect(['The upload broke off before the whole file arrived.', 'The transfer was cancelled.']).toContain(entry!.error);
  });

  it('leaves no blob when a download is cut while the device sends it', async () => {
    const big = path.join(folder, 'big-download.bin');
    writeFileSync(big, Buffer.alloc(400 * MiB, 'x'));
    // node:http rather than fetch: fetch's pool then opens a fresh connection that would hold the console's close.
    const req = http.get(`${s.tc.url}/api/request-download/${device.id}?${new URLSearchParams({ path: big })}`, { headers: { authorization: `Bearer ${user}` }, agent: false });
    const going = new Promise((resolve) => req.on('error', resolve).on('response', resolve));
    await waitFor(agentSending, 30_000, 'the agent sending');
    req.destroy(new Error('cut'));
    expect(await going).toBeInstanceOf(Error);
    await noBlobs();
    await waitFor(async () => !(await agentSending()), 10_000, 'the transfer ended');
  });
}

/**
 * Hundreds of MB go through the test's own process (client, console and embedded broker): heartbeats
 * every 5 s (silent for 20 s before offline) keep a busy machine from taking the agent for gone.
 */
const ENV = { UPLOAD_MAX_BYTES: String(LIMIT), AGENT_HEARTBEAT_SECONDS: '5' };

describe('file transfers on the embedded broker', () => {
  transferSuite((env) => embeddedSetup({ ...ENV, ...env }));
});

describe.skipIf(!bin)('file transfers on Mosquitto with dynamic security', () => {
  transferSuite((env) => mosquittoSetup(bin!, { ...ENV, ...env }));
});

describe('file transfers with blobs in an S3-compatible store (s3rver)', () => {
  transferSuite((env) => embeddedSetup({ ...ENV, ...env }), 's3');
});
