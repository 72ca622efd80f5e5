import { get, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, startAgentTestConsole } from './modules/broker/broker.test-support.js';
import type { TestConsole } from './testing/test-console.js';

/**
 * X-Forwarded-For, -Proto and -Host decide the address limits count by, whether the request came
 * over https, and the host the provider names: they count only from the proxies in TRUST_PROXY.
 */
const HSTS = 'max-age=31536000; includeSubDomains';
const paths = ['/api/health', '/api/me', '/idp/.well-known/openid-configuration', '/devices/search'];
/** A GET with a Host header of the test's choosing (fetch sends the URL's own). */
function withHost(url: string, host: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    }).on('error', reject);
  });
}

const forwarded = (n: number) => ({ 'x-forwarded-for': `198.51.100.${n}`, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' });

describe('without TRUST_PROXY (the default), forwarded headers count for nothing', () => {
  let c: TestConsole;
  beforeAll(async () => {
    c = await startAgentTestConsole({ ENROLL_RATE_LIMIT: '10' });
  });
  afterAll(async () => c?.close());

  it('limits 30 enrollment attempts from one client that names a new address in each', async () => {
    const dev = await createDevice(c.database.db);
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await c.api('/api/agent/enroll', { method: 'POST', json: { deviceId: dev.id, key: `guess-${i}` }, headers: forwarded(i) });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(403));
    expect(statuses.slice(10)).toEqual(Array(20).fill(429));
  });

  it('keeps the provider’s URLs on PUBLIC_URL whatever Host a client sends, and lets the discovery document be cached (issue 58)', async () => {
    const own = new URL(c.env.PUBLIC_URL);
    const discovery = await withHost(`${c.url}/idp/.well-known/openid-configuration`, 'evil.example');
    expect(discovery.headers['cache-control']).toBe('public, max-age=300');
    const doc = JSON.parse(discovery.body);
    for (const key of ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri', 'end_session_endpoint']) {
      expect(new URL(doc[key]).host, key).toBe(own.host);
    }
    // A sign-in started with a foreign Host is sent on to the provider's page on PUBLIC_URL too.
    const query = new URLSearchParams({ client_id: c.env.OIDC_CLIENT_ID, response_type: 'code', scope: 'openid', redirect_uri: `${own.origin}/auth/callback`, code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' });
    const auth = await withHost(`${c.url}/idp/auth?${query}`, 'evil.example');
    expect(auth.status).toBe(303);
    expect(new URL(String(auth.headers.location), own).host).toBe(own.host);
  });

  it('keeps the provider’s discovery document on the console’s own host', async () => {
    const res = await c.api('/idp/.well-known/openid-configuration', { headers: forwarded(1) });
    const doc = await res.json();
    const own = new URL(c.url).host;
    for (const key of ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri', 'end_session_endpoint']) {
      expect(new URL(doc[key]).host, key).toBe(own);
      expect(new URL(doc[key]).protocol, key).toBe('http:');
    }
  });

  it('sends no Strict-Transport-Security for a client that only says it came over https', async () => {
    for (const path of paths) expect((await c.api(path, { headers: forwarded(1) })).headers.get('strict-transport-security'), path).toBeNull();
  });
});

describe('with TRUST_PROXY naming the proxy', () => {
  let c: TestConsole;
  beforeAll(async () => {
    c = await startAgentTestConsole({ ENROLL_RATE_LIMIT: '2', TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' });
  });
  afterAll(async () => c?.close());

  it('counts enrollment attempts per forwarded client address', async () => {
    const dev = await createDevice(c.database.db);
    const enroll = (n: number) => c.api('/api/agent/enroll', { method: 'POST', json: { deviceId: dev.id, key: 'guess' }, headers: forwarded(n) });
    expect([(await enroll(1)).status, (await enroll(1)).status, (await enroll(1)).status]).toEqual([403, 403, 429]);
    // Another client behind the same proxy has its own count.
    expect((await enroll(2)).status).toBe(403);
  });

  it('sends Strict-Transport-Security when the proxy says the request came over https', async () => {
    for (const path of paths) {
      const res = await c.api(path, { headers: { 'x-forwarded-proto': 'https' } });
      expect(res.headers.get('strict-transport-security'), path).toBe(HSTS);
    }
  });

  it('names the forwarded host and scheme in the provider’s endpoints', async () => {
    const doc = await (await c.api('/idp/.well-known/openid-configuration', { headers: forwarded(1) })).json();
    expect(new URL(doc.token_endpoint).origin).toBe('https://evil.example');
  });
});
