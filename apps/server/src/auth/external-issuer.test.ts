import { UPLOAD_MAX_BYTES_DEFAULT } from '@fleetlink/contract';
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startTestConsole, type TestConsole } from '../testing/test-console.js';

/**
 * Stands in for Keycloak, which is outside the product and not on this machine: a discovery
 * document and JWKS at Keycloak's paths, and tokens with Keycloak's claim layout.
 */
async function fakeKeycloak() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'kc-1', use: 'sig', alg: 'RS256' };
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}/realms/fleetlink`;
  const server: Server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/realms/fleetlink/.well-known/openid-configuration') {
      res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/protocol/openid-connect/certs` }));
    } else if (req.url === '/realms/fleetlink/protocol/openid-connect/certs') {
      res.end(JSON.stringify({ keys: [jwk] }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const sign = (claims: Record<string, unknown>) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      iss: issuer,
      sub: 'f3b0c1d2-0000-4000-8000-00000000abcd',
      aud: 'account',
      iat: now,
      exp: now + 300,
      typ: 'Bearer',
      azp: 'fleetlink-console',
      sid: 'kc-session-1',
      scope: 'openid profile email',
      preferred_username: 'kc.user@example.com',
      name: 'Kay Cloak',
      email: 'kc.user@example.com',
      realm_access: { roles: ['USER', 'offline_access', 'default-roles-fleetlink'] },
      resource_access: { account: { roles: ['manage-account'] } },
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'kc-1', typ: 'JWT' })
      .sign(privateKey);
  };
  return { issuer, sign, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('an external OIDC provider', () => {
  let kc: Awaited<ReturnType<typeof fakeKeycloak>>;
  let c: TestConsole;
  beforeAll(async () => {
    kc = await fakeKeycloak();
    c = await startTestConsole({ OIDC_ISSUER: kc.issuer, OIDC_AUDIENCE: 'account' });
  });
  afterAll(async () => {
    await c?.close();
    await kc?.close();
  });

  it('tells the SPA to sign in there, and the built-in provider is off', async () => {
    expect(await (await c.api('/api/config')).json()).toEqual({
      oidc: { authority: kc.issuer, clientId: 'fleetlink-console', scope: 'openid profile email' },
      uploadMaxBytes: UPLOAD_MAX_BYTES_DEFAULT,
    });
    expect((await c.api('/idp/.well-known/openid-configuration')).status).toBe(404);
  });

  it('accepts Keycloak-shaped tokens verified through the issuer JWKS', async () => {
    const res = await c.api('/api/me', { token: await kc.sign({}) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      subject: 'f3b0c1d2-0000-4000-8000-00000000abcd',
      sessionId: 'kc-session-1',
      username: 'kc.user@example.com',
      name: 'Kay Cloak',
      realmRoles: ['USER', 'offline_access', 'default-roles-fleetlink'],
      clientRoles: { account: ['manage-account'] },
    });
  });

  it('refuses expired tokens, other audiences and other issuers', async () => {
    const expired = await kc.sign({ exp: Math.floor(Date.now() / 1000) - 60 });
    const expiredRes = await c.api('/api/me', { token: expired });
    expect(expiredRes.status).toBe(401);
    expect((await expiredRes.json()).message).toBe('The access token has expired. Sign in again.');
    expect((await c.api('/api/me', { token: await kc.sign({ aud: 'someone-else' }) })).status).toBe(401);
    expect((await c.api('/api/me', { token: await kc.sign({ iss: 'http://evil.example/realms/fleetlink' }) })).status).toBe(401);
  });
});

describe('another Fleetlink console as the external provider', () => {
  it('verifies tokens issued by the other console’s built-in provider', async () => {
    const idp = await startTestConsole();
    const c = await startTestConsole({ OIDC_ISSUER: `${idp.url}/idp`, OIDC_AUDIENCE: 'fleetlink-api' });
    try {
      const res = await c.api('/api/me', { token: await idp.token('admin@fleetlink.local') });
      expect(res.status).toBe(200);
      expect((await res.json()).realmRoles).toEqual(['USER', 'ADMIN']);
    } finally {
      await c.close();
      await idp.close();
    }
  });
});
