import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from './db/schema/index.js';
import { passwordLogin } from './idp/password-login.js';
import { startTestConsole, type TestConsole } from './testing/test-console.js';

let c: TestConsole;
beforeAll(async () => {
  c = await startTestConsole();
});
afterAll(async () => c?.close());

describe('API basics', () => {
  it('answers health without a token', async () => {
    const res = await c.api('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('serves the OpenAPI document and Swagger UI at /api/docs', async () => {
    const doc = await (await c.api('/api/docs/json')).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain('/api/health');
    expect((await c.api('/api/docs/')).status).toBe(200);
  });

  it('answers unknown routes with a 404 JSON error', async () => {
    const res = await c.api('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: 'NOT_FOUND', message: 'There is no GET /api/no-such-thing here.' });
  });

  it('answers a body that is not JSON with 415 and what to send', async () => {
    const token = await c.token('user@fleetlink.local');
    for (const type of ['text/plain', 'application/xml']) {
      const res = await c.api('/api/organization', { method: 'POST', token, headers: { 'content-type': type }, body: 'name=x' });
      expect(res.status, type).toBe(415);
      expect(await res.json()).toEqual({ code: 'BAD_REQUEST', message: 'Send the body as JSON (Content-Type: application/json), or as multipart/form-data for a file upload.' });
    }
  });

  it('answers malformed JSON with a 400 JSON error, not a 500', async () => {
    const token = await c.token('user@fleetlink.local');
    const res = await c.api('/api/me', { method: 'POST', token, headers: { 'content-type': 'application/json' }, body: '{"oops' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect((await res.json()).code).toBeTypeOf('string');
  });
});

describe('Strict-Transport-Security', () => {
  const paths = ['/api/health', '/api/me', '/idp/.well-known/openid-configuration', '/devices/search'];

  it('is not sent over plain http, on the API, the provider or the SPA', async () => {
    for (const path of paths) {
      const res = await c.api(path);
      expect(res.headers.get('strict-transport-security'), path).toBeNull();
      // The other security headers still are.
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  // Over https (through a TLS-terminating proxy the operator trusts): forwarded-headers.test.ts.
});

describe('bearer tokens', () => {
  it('refuses a request without a token with 401 JSON', async () => {
    const res = await c.api('/api/me');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 'UNAUTHENTICATED', message: 'Sign in to use this API: the bearer token is missing.' });
  });

  it('refuses a token that is not a JWT, or signed by another key', async () => {
    expect((await c.api('/api/me', { token: 'not.a.jwt' })).status).toBe(401);
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ realm_access: { roles: ['USER', 'ADMIN'] }, preferred_username: 'admin@fleetlink.local' })
      .setProtectedHeader({ alg: 'RS256' })
      .setSubject('intruder')
      .setIssuer(`${c.url}/idp`)
      .setAudience('fleetlink-api')
      .setExpirationTime('5m')
      .sign(privateKey);
    const res = await c.api('/api/me', { token: forged });
    expect(res.status).toBe(401);
    expect((await res.json()).message).toBe('The access token is not valid.');
  });

  it('accepts a real token of the built-in provider and reads its Keycloak-shaped claims', async () => {
    const token = await c.token('admin@fleetlink.local');
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({
      iss: `${c.url}/idp`,
      aud: 'fleetlink-api',
      preferred_username: 'admin@fleetlink.local',
      email: 'admin@fleetlink.local',
      name: 'Ada Admin',
      realm_access: { roles: ['USER', 'ADMIN'] },
      resource_access: { 'fleetlink-console': { roles: [] } },
    });
    expect(claims.sid).toBeTypeOf('string');
    const me = await (await c.api('/api/me', { token })).json();
    expect(me).toMatchObject({ username: 'admin@fleetlink.local', name: 'Ada Admin', realmRoles: ['USER', 'ADMIN'], sessionId: claims.sid });
  });

  it('gives the guest account no realm role', async () => {
    const me = await (await c.api('/api/me', { token: await c.token('guest@fleetlink.local') })).json();
    expect(me.realmRoles).toEqual([]);
  });

  it('records users seen in tokens with first and last seen times', async () => {
    await c.api('/api/me', { token: await c.token('user@fleetlink.local') });
    const rows = await c.database.db.select().from(users);
    const user = rows.find((u) => u.username === 'user@fleetlink.local');
    expect(user?.firstSeenAt).toBeInstanceOf(Date);
    expect(user!.lastSeenAt.getTime()).toBeGreaterThanOrEqual(user!.firstSeenAt.getTime());
  });
});

describe('built-in provider', () => {
  it('rejects a wrong password on its sign-in page', async () => {
    await expect(passwordLogin({ consoleUrl: c.url, email: 'user@fleetlink.local', password: 'wrong' })).rejects.toThrow(
      'invalid email or password',
    );
  });

  it('rotates refresh tokens: a used refresh token cannot be used again', async () => {
    const first = await passwordLogin({ consoleUrl: c.url, email: 'user@fleetlink.local', password: 'user' });
    expect(first.refresh_token).toBeTruthy();
    const refresh = (rt: string) =>
      fetch(`${c.url}/idp/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: rt, client_id: 'fleetlink-console' }),
      });
    const second = await refresh(first.refresh_token!);
    expect(second.status).toBe(200);
    const body = await second.json();
    expect(body.refresh_token).toBeTruthy();
    expect(body.refresh_token).not.toBe(first.refresh_token);
    expect((await c.api('/api/me', { token: body.access_token })).status).toBe(200);
    const replay = await refresh(first.refresh_token!);
    expect(replay.status).toBe(400);
    expect((await replay.json()).error).toBe('invalid_grant');
  });
});
