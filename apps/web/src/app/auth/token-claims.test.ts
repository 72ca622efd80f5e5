import { describe, expect, it } from 'vitest';
import { decodeJwtPayload, readAuthDetails } from './token-claims';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const CLIENT = 'fleetlink-console';
const jwt = (payload: unknown) => `${base64url({ alg: 'RS256', typ: 'JWT' })}.${base64url(payload)}.signature`;

describe('decodeJwtPayload', () => {
  it('decodes a base64url payload, including UTF-8 text', () => {
    expect(decodeJwtPayload(jwt({ name: 'José Müller', n: 1 }))).toEqual({ name: 'José Müller', n: 1 });
  });

  it('handles payloads whose base64url form needs padding and uses - and _', () => {
    const payload = { s: '>>>???', t: 'ab' };
    expect(decodeJwtPayload(jwt(payload))).toEqual(payload);
  });

  it('returns null for things that are not JWTs', () => {
    expect(decodeJwtPayload('')).toBeNull();
    expect(decodeJwtPayload('opaque-token')).toBeNull();
    expect(decodeJwtPayload('a.%%%.c')).toBeNull();
    expect(decodeJwtPayload(`a.${base64url([1, 2])}.c`)).toBeNull();
  });
});

describe('readAuthDetails', () => {
  it('reads Keycloak-shaped claims', () => {
    const token = jwt({
      sub: 'u-1',
      sid: 's-1',
      preferred_username: 'admin@fleetlink.local',
      realm_access: { roles: ['USER', 'ADMIN'] },
      resource_access: { 'fleetlink-console': { roles: ['viewer'] }, account: { roles: [] } },
    });
    expect(readAuthDetails(token, CLIENT)).toEqual({
      subject: 'u-1',
      sessionId: 's-1',
      username: 'admin@fleetlink.local',
      realmRoles: ['USER', 'ADMIN'],
      clientRoles: { 'fleetlink-console': ['viewer'], account: [] },
      roles: ['USER', 'ADMIN', 'viewer'],
    });
  });

  it('gives no roles when the claims are missing or malformed', () => {
    expect(readAuthDetails(jwt({ sub: 'u-2', realm_access: { roles: 'ADMIN' } }), CLIENT)).toEqual({
      subject: 'u-2',
      sessionId: null,
      username: null,
      realmRoles: [],
      clientRoles: {},
      roles: [],
    });
    expect(readAuthDetails('not-a-jwt', CLIENT).roles).toEqual([]);
  });

  it('ignores non-string role entries', () => {
    expect(readAuthDetails(jwt({ realm_access: { roles: ['USER', 42, null] } }), CLIENT).roles).toEqual(['USER']);
  });
});

describe('roles', () => {
  it('counts the console client\'s roles like realm roles, and no other client\'s', () => {
    const token = jwt({ resource_access: { [CLIENT]: { roles: ['USER'] }, account: { roles: ['ADMIN'] } } });
    expect(readAuthDetails(token, CLIENT).roles).toEqual(['USER']);
    expect(readAuthDetails(token, 'another-client').roles).toEqual([]);
  });
});

describe('identity mapping in the page', () => {
  it('grants what the operator maps the groups claim to, as the API does', () => {
    const mapping = { claim: 'groups', map: { '/fleet-admins': ['ADMIN'], '/fleet-users': ['USER'] } };
    const token = jwt({ realm_access: { roles: ['offline_access'] }, groups: ['/fleet-admins', '/other'] });
    expect(readAuthDetails(token, CLIENT, mapping).roles).toEqual(['offline_access', 'ADMIN']);
    expect(readAuthDetails(jwt({ groups: '/fleet-users' }), CLIENT, mapping).roles).toEqual(['USER']);
    expect(readAuthDetails(token, CLIENT, null).roles).toEqual(['offline_access']);
  });
});
