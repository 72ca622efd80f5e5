import { missingOrganizationDetails, UPLOAD_MAX_BYTES_DEFAULT } from '@fleetlink/contract';
import { describe, expect, it } from 'vitest';
import { passwordLogin } from '../idp/password-login.js';
import { useKeycloakConsole } from '../testing/keycloak-console.test-support.js';
import { startTestConsole } from '../testing/test-console.js';

describe('an external OIDC provider', () => {
  // No OIDC_AUDIENCE: the audience check is on by default, for fleetlink-api.
  const s = useKeycloakConsole();

  it('tells the SPA to sign in there, and the built-in provider is off', async () => {
    expect(await (await s.console.api('/api/config')).json()).toEqual({
      oidc: { authority: s.kc.issuer, clientId: 'fleetlink-console', scope: 'openid profile email' },
      uploadMaxBytes: UPLOAD_MAX_BYTES_DEFAULT,
      roleMapping: null,
      // People are managed in that provider: no Accounts page, no accounts API (issue 72).
      accounts: false,
    });
    expect((await s.console.api('/idp/.well-known/openid-configuration')).status).toBe(404);
    expect((await s.console.api('/api/accounts')).status).toBe(404);
  });

  it('accepts Keycloak-shaped tokens verified through the issuer JWKS', async () => {
    const res = await s.console.api('/api/me', { token: await s.kc.sign({}) });
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

  it("grants the console client's roles like realm roles (a realm that maps USER and ADMIN as client roles)", async () => {
    const asClientRoles = (roles: string[], client = 'fleetlink-console') =>
      s.kc.sign({ realm_access: { roles: ['offline_access'] }, resource_access: { [client]: { roles }, account: { roles: ['manage-account'] } } });
    const status = async (path: string, token: string) => (await s.console.api(path, { token })).status;

    const user = await asClientRoles(['USER']);
    expect(await (await s.console.api('/api/me', { token: user })).json()).toMatchObject({ realmRoles: ['offline_access'], roles: ['offline_access', 'USER'] });
    expect(await status('/api/devices', user)).toBe(200);
    expect(await status('/api/servers', user)).toBe(403);

    const admin = await asClientRoles(['USER', 'ADMIN']);
    expect(await status('/api/devices', admin)).toBe(200);
    expect(await status('/api/servers', admin)).toBe(200);

    // The same roles held for another client of the realm grant nothing here.
    const otherClient = await asClientRoles(['USER', 'ADMIN'], 'grafana');
    expect(await status('/api/devices', otherClient)).toBe(403);
    expect(await status('/api/servers', otherClient)).toBe(403);
  });

  it("makes the user's personal organization with the name and email the provider gives, and says what is missing", async () => {
    // A login name that is no email address is not taken for one; the email claim is.
    const token = await s.kc.sign({ sub: 'kc-person-2', preferred_username: 'kay', name: 'Kay Two', email: 'Kay.Two@Example.com' });
    const res = await s.console.api('/api/organizations', { token });
    expect(res.status).toBe(200);
    const [personal] = await res.json();
    expect(personal).toMatchObject({ type: 'PERSONAL', role: 'CREATOR', name: 'Kay Two', email: 'kay.two@example.com', country: null, address: null });
    expect(missingOrganizationDetails(personal)).toEqual(['Country', 'Address']);

    // Without an email claim the login name is taken only when it is an email address.
    const bare = await s.kc.sign({ sub: 'kc-person-3', preferred_username: 'bare', name: null, email: undefined });
    const [bareOrg] = await (await s.console.api('/api/organizations', { token: bare })).json();
    expect(bareOrg).toMatchObject({ type: 'PERSONAL', name: 'bare', email: null });
    expect(missingOrganizationDetails(bareOrg)).toEqual(['Country', 'Address', 'Email']);
    const loginEmail = await s.kc.sign({ sub: 'kc-person-4', preferred_username: 'Kay4@Example.com', email: 'not an email' });
    const [loginEmailOrg] = await (await s.console.api('/api/organizations', { token: loginEmail })).json();
    expect(loginEmailOrg.email).toBe('kay4@example.com');
  });

  it('refuses expired tokens, other audiences and other issuers', async () => {
    const expired = await s.kc.sign({ exp: Math.floor(Date.now() / 1000) - 60 });
    const expiredRes = await s.console.api('/api/me', { token: expired });
    expect(expiredRes.status).toBe(401);
    expect((await expiredRes.json()).message).toBe('The access token has expired. Sign in again.');
    expect((await s.console.api('/api/me', { token: await s.kc.sign({ aud: 'someone-else' }) })).status).toBe(401);
    expect((await s.console.api('/api/me', { token: await s.kc.sign({ iss: 'http://evil.example/realms/fleetlink' }) })).status).toBe(401);
  });

  it('refuses a token without an expiry', async () => {
    const res = await s.console.api('/api/me', { token: await s.kc.sign({ exp: undefined }) });
    expect(res.status).toBe(401);
    expect((await res.json()).message).toBe('The access token is not valid: it has no "exp" claim.');
  });

  it("refuses the console's ID token, though signed by the same issuer for the same user", async () => {
    // Keycloak's ID token: typ ID, the client as audience.
    const res = await s.console.api('/api/me', { token: await s.kc.sign({ typ: 'ID', aud: 'fleetlink-console', nonce: 'n-1', at_hash: 'x' }) });
    expect(res.status).toBe(401);
    expect((await res.json()).message).toBe('This token is not an access token: send the access token, not the ID token.');
  });

  it("refuses another client's access token of the same realm (no API audience)", async () => {
    const res = await s.console.api('/api/me', { token: await s.kc.sign({ azp: 'grafana', aud: 'account' }) });
    expect(res.status).toBe(401);
    expect((await res.json()).message).toBe('The access token is not for this API: its audience must include fleetlink-api.');
  });
});

describe('an external OIDC provider with the audience check turned off (OIDC_AUDIENCE=none)', () => {
  const s = useKeycloakConsole({ OIDC_AUDIENCE: 'none' });

  it('accepts access tokens of any audience', async () => {
    expect((await s.console.api('/api/me', { token: await s.kc.sign({ aud: 'account' }) })).status).toBe(200);
    expect((await s.console.api('/api/me', { token: await s.kc.sign({ aud: 'account' }, { typ: 'at+jwt' }) })).status).toBe(200);
  });

  it('still refuses ID tokens, by their typ or, without one, by their audience', async () => {
    const keycloakIdToken = await s.kc.sign({ typ: 'ID', aud: 'fleetlink-console' });
    const plainIdToken = await s.kc.sign({ typ: undefined, aud: 'fleetlink-console' });
    for (const token of [keycloakIdToken, plainIdToken]) {
      const res = await s.console.api('/api/me', { token });
      expect(res.status).toBe(401);
      expect((await res.json()).message).toMatch(/^This token is not an access token/);
    }
    // Refresh tokens are JWTs at Keycloak too.
    expect((await s.console.api('/api/me', { token: await s.kc.sign({ typ: 'Refresh' }) })).status).toBe(401);
    expect((await s.console.api('/api/me', { token: await s.kc.sign({ typ: undefined, aud: 'account' }) })).status).toBe(200);
  });
});

describe('another Fleetlink console as the external provider', () => {
  it('verifies tokens issued by the other console’s built-in provider', async () => {
    const idp = await startTestConsole();
    const c = await startTestConsole({ OIDC_ISSUER: `${idp.url}/idp` });
    try {
      const tokens = await passwordLogin({ consoleUrl: idp.url, email: 'admin@fleetlink.local', password: 'admin' });
      const res = await c.api('/api/me', { token: tokens.access_token });
      expect(res.status).toBe(200);
      expect((await res.json()).realmRoles).toEqual(['USER', 'ADMIN']);
      // Its ID token has the same issuer, signature and subject; it opens nothing, here or at home.
      for (const at of [c, idp]) expect((await at.api('/api/me', { token: tokens.id_token })).status).toBe(401);
    } finally {
      await c.close();
      await idp.close();
    }
  });
});
