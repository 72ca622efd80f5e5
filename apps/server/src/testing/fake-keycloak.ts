import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { freePort } from './test-console.js';

/**
 * Stands in for Keycloak, which is outside the product and not on this machine: a discovery
 * document, a JWKS, an authorization endpoint and a token endpoint at Keycloak's paths, issuing
 * tokens with Keycloak's claim layout. It signs in whoever asks (no login page), except for a
 * `prompt=none` request, which it answers as a provider without a session does: `login_required`.
 * What the tokens say of the user (roles above all) can be changed between sign-ins.
 */
export interface FakeKeycloak {
  issuer: string;
  /** Claims of every access token it issues from now on, over Keycloak's defaults. */
  accessClaims: Record<string, unknown>;
  /** An access token as Keycloak makes it, with `claims` over the defaults and `accessClaims`. */
  sign(claims?: Record<string, unknown>, header?: { typ?: string }): Promise<string>;
  close(): Promise<void>;
}

const REALM = '/realms/fleetlink';
const ACCESS_TOKEN_SECONDS = 300;

export async function startFakeKeycloak(clientId = 'fleetlink-console'): Promise<FakeKeycloak> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'kc-1', use: 'sig', alg: 'RS256' };
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}${REALM}`;
  const endpoint = (name: string) => `${issuer}/protocol/openid-connect/${name}`;
  /** Codes handed out by the authorization endpoint, with the nonce to put in the ID token. */
  const codes = new Map<string, { nonce: string | null }>();

  const user = {
    sub: 'f3b0c1d2-0000-4000-8000-00000000abcd',
    sid: 'kc-session-1',
    preferred_username: 'kc.user@example.com',
    name: 'Kay Cloak',
    email: 'kc.user@example.com',
  };
  const signed = (claims: Record<string, unknown>, header: { typ?: string }) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ iss: issuer, iat: now, exp: now + ACCESS_TOKEN_SECONDS, ...user, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'kc-1', ...header })
      .sign(privateKey);
  };

  const fake: FakeKeycloak = {
    issuer,
    accessClaims: {},
    sign: (claims = {}, header = { typ: 'JWT' }) =>
      signed(
        {
          // Keycloak's access tokens name the account service; the realm's audience mapper adds the API.
          aud: ['fleetlink-api', 'account'],
          typ: 'Bearer',
          azp: clientId,
          scope: 'openid profile email',
          realm_access: { roles: ['USER', 'offline_access', 'default-roles-fleetlink'] },
          resource_access: { account: { roles: ['manage-account'] } },
          ...fake.accessClaims,
          ...claims,
        },
        header,
      ),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };

  const authorize = (url: URL, res: ServerResponse) => {
    const back = new URL(url.searchParams.get('redirect_uri') ?? '');
    back.searchParams.set('state', url.searchParams.get('state') ?? '');
    if (url.searchParams.get('prompt') === 'none') {
      back.searchParams.set('error', 'login_required');
    } else {
      const code = randomBytes(16).toString('hex');
      codes.set(code, { nonce: url.searchParams.get('nonce') });
      back.searchParams.set('code', code);
    }
    res.writeHead(302, { location: back.toString() });
    res.end();
  };

  const token = async (req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const form = new URLSearchParams(text);
    let nonce: string | null = null;
    if (form.get('grant_type') === 'authorization_code') {
      const issued = codes.get(form.get('code') ?? '');
      if (!issued) return json(res, 400, { error: 'invalid_grant', error_description: 'Code not valid' });
      codes.delete(form.get('code')!);
      nonce = issued.nonce;
    } else if (form.get('grant_type') !== 'refresh_token') {
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    json(res, 200, {
      access_token: await fake.sign(),
      id_token: await signed({ aud: clientId, typ: 'ID', azp: clientId, ...(nonce ? { nonce } : {}) }, { typ: 'JWT' }),
      refresh_token: randomBytes(16).toString('hex'),
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      scope: 'openid profile email',
    });
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    switch (url.pathname) {
      case `${REALM}/.well-known/openid-configuration`:
        return json(res, 200, {
          issuer,
          authorization_endpoint: endpoint('auth'),
          token_endpoint: endpoint('token'),
          jwks_uri: endpoint('certs'),
          end_session_endpoint: endpoint('logout'),
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
        });
      case `${REALM}/protocol/openid-connect/certs`:
        return json(res, 200, { keys: [jwk] });
      case `${REALM}/protocol/openid-connect/auth`:
        return authorize(url, res);
      case `${REALM}/protocol/openid-connect/token`:
        return void token(req, res).catch(() => json(res, 500, { error: 'server_error' }));
      default:
        return json(res, 404, {});
    }
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return fake;
}
