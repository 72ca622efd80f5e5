import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import path from 'node:path';
import { create } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLOW_REQUEST_LIMITS } from '@fleetlink/contract/slow-requests';
import { ADMIN_EMAIL, embeddedSetup, onlineMemberDevice, tearDown, waitFor, type AgentProcess, type MessagingSetup } from '../broker/broker.test-support.js';

const B = 'fleetlinkBoundary58';

/**
 * A raw request, its body sent with its Content-Length as curl does (fetch would frame a body of its
 * own); with `declaredLength` past the body's, the client then sends nothing more and waits.
 */
function post(url: string, token: string, contentType: string, body: Buffer, declaredLength = body.length): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'content-length': declaredLength } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
    req.setTimeout(40_000, () => reject(new Error('no answer in 40 s')));
    if (declaredLength > body.length) req.write(body);
    else req.end(body);
  });
}

const field = (name: string, value: string) => `--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHead = (name: string, filename: string) => `--${B}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
const multipart = `multipart/form-data; boundary=${B}`;

/** The start of a real .tar.gz, cut off in its file's bytes: a parser reading it waits for more, so only the form's end can say it is cut. */
const cutArchive = (() => {
  const dir = mkdtempSync(path.join(tmpdir(), 'fleetlink-cut-'));
  writeFileSync(path.join(dir, 'big.bin'), randomBytes(300_000));
  create({ gzip: true, sync: true, file: path.join(dir, 'a.tar.gz'), cwd: dir }, ['big.bin']);
  const cut = readFileSync(path.join(dir, 'a.tar.gz')).subarray(0, 70_000);
  rmSync(dir, { recursive: true, force: true });
  return cut;
})();

/** The malformed bodies of the probe, each answered 400 with a message, never 500 or silence (issue 58). */
const MALFORMED = (fileField: string, before = '') => ({
  'no boundary': { contentType: 'multipart/form-data', body: Buffer.from(`${before}${fileHead(fileField, 'a.bin')}data\r\n--${B}--\r\n`) },
  'a part with no body': { contentType: multipart, body: Buffer.from(`${before}--${B}\r\nContent-Disposition: form-data; name="${fileField}"; filename="a.bin"\r\n--${B}--\r\n`) },
  'no closing boundary': { contentType: multipart, body: Buffer.concat([Buffer.from(`${before}${fileHead(fileField, 'a.tar.gz')}`), cutArchive]) },
  'no file part': { contentType: multipart, body: Buffer.from(`${before}--${B}--\r\n`) },
  'not multipart at all': { contentType: multipart, body: Buffer.from('hello') },
});

describe('malformed multipart bodies', () => {
  const agents: AgentProcess[] = [];
  const dirs: string[] = [];
  let s: MessagingSetup;
  let admin: string;
  let deviceId: string;
  const partials = (folder: string) => {
    const dir = path.join(s.tc.dataDir, folder);
    return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.part')) : [];
  };

  beforeAll(async () => {
    s = await embeddedSetup();
    admin = await s.tc.token(ADMIN_EMAIL);
    deviceId = (await onlineMemberDevice(s, 'multipart target', { agents, dirs })).device.id;
  });
  afterAll(() => tearDown(s, { agents, dirs }));

  it('answers POST /api/upload/{id} 400 for each, and leaves no partial blob', async () => {
    for (const [what, { contentType, body }] of Object.entries(MALFORMED('file', field('path', '/tmp')))) {
      const res = await post(`${s.tc.url}/api/upload/${deviceId}`, admin, contentType, body);
      expect(res.status, `${what}: ${res.body}`).toBe(400);
      expect(JSON.parse(res.body).message, what).toMatch(/\w/);
      expect(partials('blobs'), what).toEqual([]);
    }
  });

  it('answers POST /api/bundle 400 for each, and leaves no partial bundle', async () => {
    for (const [what, { contentType, body }] of Object.entries(MALFORMED('file'))) {
      const res = await post(`${s.tc.url}/api/bundle`, admin, contentType, body);
      expect(res.status, `${what}: ${res.body}`).toBe(400);
      expect(JSON.parse(res.body).message, what).toMatch(/\w/);
      expect(partials('bundles'), what).toEqual([]);
    }
  });

  it('answers a form that stops arriving 408 within the slow-request window, and removes its partial bundle', async () => {
    const head = Buffer.concat([Buffer.from(fileHead('file', 'a.tar.gz')), cutArchive]);
    const started = Date.now();
    // Says it sends more than it does, then sends nothing more (the probe's silent 70 s).
    const answer = await post(`${s.tc.url}/api/bundle`, admin, multipart, head, head.length + 1000);
    expect(answer.status).toBe(408);
    expect(Date.now() - started).toBeLessThan(SLOW_REQUEST_LIMITS.windowMs * 2 + 5000);
    await waitFor(() => partials('bundles').length === 0, 5000, 'the partial bundle removed');
  }, 40_000);

  it('removes at start the partial files a console was killed in the middle of', async () => {
    const dir = path.join(s.tc.dataDir, 'bundles');
    mkdirSync(dir, { recursive: true });
    const stale = path.join(dir, 'f00d.abc123.part');
    const fresh = path.join(dir, 'beef.abc123.part');
    writeFileSync(stale, 'cut');
    writeFileSync(fresh, 'still arriving');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(stale, twoHoursAgo, twoHoursAgo);
    await s.tc.restart();
    expect(partials('bundles')).toEqual(['beef.abc123.part']);
  });
});
