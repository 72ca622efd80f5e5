import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { afterAll, describe, expect, it } from 'vitest';
import { registerSecurityHeaders, securityHeadersOf } from './security-headers.js';

const options: HelmetOptions = {
  strictTransportSecurity: false,
  contentSecurityPolicy: {
    directives: {
      'connect-src': ["'self'", 'https://id.example.test'],
      'script-src': ["'self'", "'sha256-abc='"],
      'upgrade-insecure-requests': null,
    },
  },
};

/** Headers that are not helmet's: they differ between two servers anyway. */
const own = new Set(['date', 'connection', 'keep-alive', 'content-length', 'content-type', 'transfer-encoding']);
const securityOnly = (headers: Headers) => Object.fromEntries([...headers].filter(([name]) => !own.has(name)));

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('security headers worked out once (issue 69)', () => {
  const servers: Array<{ close(): unknown }> = [];
  afterAll(() => Promise.all(servers.map((s) => s.close())));

  it('answers exactly the headers helmet itself sets per request, on fastify answers and on hijacked ones', async () => {
    // helmet as a per-request middleware on a plain Node server: what @fastify/helmet used to send.
    const plain = createServer((req, res) => helmet(options)(req, res, () => res.end('ok')));
    servers.push(plain);
    const expected = securityOnly((await fetch(await listen(plain))).headers);
    expect(expected['content-security-policy']).toContain("connect-src 'self' https://id.example.test");
    expect(expected['x-frame-options']).toBe('SAMEORIGIN');

    const app = Fastify();
    servers.push(app);
    registerSecurityHeaders(app, options);
    app.get('/json', async () => ({ ok: true }));
    // The built-in provider answers on the raw response after hijacking the reply.
    app.get('/hijacked', (_req, reply) => {
      reply.hijack();
      reply.raw.end('raw');
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    for (const route of ['/json', '/hijacked', '/missing']) {
      const answer = await fetch(base + route);
      expect(securityOnly(answer.headers), route).toEqual(expected);
    }
  });

  it('refuses a CSP directive that depends on the request, which once cannot serve', () => {
    expect(() =>
      securityHeadersOf({ contentSecurityPolicy: { directives: { 'script-src': ["'self'", () => "'nonce-x'"] } } }),
    ).toThrow(/script-src depends on the request/);
  });
});
