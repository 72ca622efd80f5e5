import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestConsole, type TestConsole } from '../testing/test-console.js';

/** The bytes as they came over the wire (fetch would decompress them), with the headers. */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
    })
      .on('error', reject)
      .end();
  });
}

const decoded = (answer: { headers: Record<string, unknown>; body: Buffer }) =>
  answer.headers['content-encoding'] === 'br' ? brotliDecompressSync(answer.body) : answer.headers['content-encoding'] === 'gzip' ? gunzipSync(answer.body) : answer.body;

describe('compression and caching of the console answers (issue 68)', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'fleetlink-dist-'));
  const script = Buffer.from(`console.log(${JSON.stringify('x'.repeat(5000))});\n`);
  const html = Buffer.from(`<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/main-AbCd12_-.js"></script></body></html>`);
  let tc: TestConsole;

  beforeAll(async () => {
    // A build as the web console's is laid out: hashed assets with their .br and .gz, pages beside them.
    mkdirSync(path.join(dist, 'assets'));
    for (const [file, data] of [
      ['assets/main-AbCd12_-.js', script],
      ['index.html', html],
      ['assets/silent-check-sso.html', html],
    ] as const) {
      writeFileSync(path.join(dist, file), data);
      writeFileSync(path.join(dist, `${file}.br`), brotliCompressSync(data));
      writeFileSync(path.join(dist, `${file}.gz`), gzipSync(data));
    }
    writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    tc = await startTestConsole({}, { webDist: dist });
  }, 60_000);
  afterAll(async () => {
    await tc?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('sends the build files pre-compressed as the browser asks, hashed ones cached for a year', async () => {
    const url = `${tc.url}/assets/main-AbCd12_-.js`;
    const br = await rawGet(url, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(script.length / 10);
    expect(decoded(br)).toEqual(script);

    const gz = await rawGet(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decoded(gz)).toEqual(script);

    const plain = await rawGet(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toEqual(script);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('asks again for the pages that name the assets: index.html (any route) and the silent check page', async () => {
    for (const page of ['/', '/devices/search', '/assets/silent-check-sso.html']) {
      const answer = await rawGet(`${tc.url}${page}`, { 'accept-encoding': 'br' });
      expect(answer.status, page).toBe(200);
      expect(answer.headers['cache-control'], page).toBe('no-cache');
      expect(answer.headers['content-encoding'], page).toBe('br');
      expect(decoded(answer), page).toEqual(html);
    }
    const favicon = await rawGet(`${tc.url}/favicon.svg`);
    expect(favicon.headers['cache-control']).toBe('public, max-age=86400');
  });

  it("compresses the API's JSON above a small size, and not below it", async () => {
    const doc = await rawGet(`${tc.url}/api/docs/json`, { 'accept-encoding': 'gzip, br' });
    expect(doc.status).toBe(200);
    expect(doc.headers['content-encoding']).toBe('br');
    expect(doc.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(decoded(doc).toString()).openapi).toMatch(/^3\./);

    const gz = await rawGet(`${tc.url}/api/docs/json`, { 'accept-encoding': 'gzip;q=1, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');

    const health = await rawGet(`${tc.url}/api/health`, { 'accept-encoding': 'br' });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(health.body.toString())).toBeTruthy();
  });

  it("compresses the built-in provider's answers, its own pages and those of its Koa app", async () => {
    const discovery = await rawGet(`${tc.url}/idp/.well-known/openid-configuration`, { 'accept-encoding': 'br' });
    expect(discovery.status).toBe(200);
    expect(discovery.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decoded(discovery).toString()).issuer).toBe(`${tc.env.PUBLIC_URL}/idp`);

    // The provider's sign-in page, reached as a browser does, from an authorization request.
    const authorize = new URL(`${tc.url}/idp/auth`);
    for (const [k, v] of Object.entries({ client_id: 'fleetlink-console', response_type: 'code', scope: 'openid', redirect_uri: `${tc.env.PUBLIC_URL}/auth/callback`, code_challenge: 'x'.repeat(43), code_challenge_method: 'S256', state: 's' })) {
      authorize.searchParams.set(k, v);
    }
    const redirect = await rawGet(authorize.href);
    expect(redirect.status).toBe(303);
    const cookie = (redirect.headers['set-cookie'] as string[]).map((c) => c.split(';')[0]).join('; ');
    const login = await rawGet(new URL(String(redirect.headers.location), tc.url).href, { 'accept-encoding': 'gzip', cookie });
    expect(login.status).toBe(200);
    expect(login.headers['content-encoding']).toBe('gzip');
    expect(decoded(login).toString()).toContain('<form');
  });
});
