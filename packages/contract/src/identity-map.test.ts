import { describe, expect, it } from 'vitest';
import { rolesFromClaims } from './roles.js';
import { claimAt, grantedOrganizations, mappedRoles, parseOrganizationMap, parseRoleMap } from './identity-map.js';

const ORG_A = '0b6f3c52-1d5e-4c8a-9a4e-2f0d6f1e7a01';
const ORG_B = '7d2a9e14-5b3c-4f6d-8e1a-9c0b2d3e4f02';

describe('identity mapping (OIDC_ROLE_CLAIM, OIDC_ROLE_MAP, OIDC_ORG_MAP)', () => {
  const mapping = { claim: 'groups', map: parseRoleMap('/fleet-admins=ADMIN, /fleet-admins=USER,/fleet-users=USER') };

  it('parses the role map, a group named twice granting both roles', () => {
    expect(mapping.map).toEqual({ '/fleet-admins': ['ADMIN', 'USER'], '/fleet-users': ['USER'] });
    expect(parseRoleMap('')).toEqual({});
    expect(() => parseRoleMap('/ops=ROOT')).toThrow('OIDC_ROLE_MAP maps "/ops" to "ROOT": a realm role is USER or ADMIN');
    expect(() => parseRoleMap('/ops')).toThrow('OIDC_ROLE_MAP must list group=value pairs, comma separated: "/ops" is not one');
  });

  it('maps a claim given as an array or as a single string; unknown groups and other types grant nothing', () => {
    expect(mappedRoles({ groups: ['/fleet-users', '/marketing', 42] }, mapping)).toEqual(['USER']);
    expect(mappedRoles({ groups: '/fleet-admins' }, mapping)).toEqual(['ADMIN', 'USER']);
    expect(mappedRoles({ groups: ['/marketing'] }, mapping)).toEqual([]);
    expect(mappedRoles({ groups: { '/fleet-admins': true } }, mapping)).toEqual([]);
    expect(mappedRoles({}, mapping)).toEqual([]);
    expect(mappedRoles({ groups: ['/fleet-admins'] }, null)).toEqual([]);
  });

  it('reads a nested claim by its dotted path, and a claim whose own name holds dots first', () => {
    const claims = { attributes: { teams: ['/fleet-admins'] }, 'https://example.com/groups': ['/fleet-users'] };
    expect(claimAt(claims, 'attributes.teams')).toEqual(['/fleet-admins']);
    expect(mappedRoles(claims, { ...mapping, claim: 'attributes.teams' })).toEqual(['ADMIN', 'USER']);
    expect(mappedRoles(claims, { ...mapping, claim: 'https://example.com/groups' })).toEqual(['USER']);
    expect(claimAt(claims, 'attributes.teams.length')).toBeUndefined();
    expect(claimAt(claims, 'attributes.missing')).toBeUndefined();
  });

  it('adds the mapped roles to those a Keycloak-shaped token holds as realm and client roles', () => {
    const claims = {
      realm_access: { roles: ['offline_access'] },
      resource_access: { 'fleetlink-console': { roles: ['USER'] }, account: { roles: ['manage-account'] } },
      groups: ['/fleet-admins'],
    };
    expect(rolesFromClaims(claims, 'fleetlink-console', mapping)).toEqual({
      realmRoles: ['offline_access'],
      clientRoles: { 'fleetlink-console': ['USER'], account: ['manage-account'] },
      roles: ['offline_access', 'USER', 'ADMIN'],
    });
    expect(rolesFromClaims(claims, 'fleetlink-console').roles).toEqual(['offline_access', 'USER']);
  });

  it('parses the organization map and grants the strongest role any of the groups gives', () => {
    const grants = parseOrganizationMap(`/acme-ops=${ORG_A}:ADMIN,/acme=${ORG_A.toUpperCase()}:USER,/beta=${ORG_B}:USER`);
    expect(grants).toEqual([
      { group: '/acme-ops', organizationId: ORG_A, role: 'ADMIN' },
      { group: '/acme', organizationId: ORG_A, role: 'USER' },
      { group: '/beta', organizationId: ORG_B, role: 'USER' },
    ]);
    expect([...grantedOrganizations(['/acme', '/acme-ops', '/other'], grants)]).toEqual([[ORG_A, 'ADMIN']]);
    expect([...grantedOrganizations(['/acme', '/beta'], grants)]).toEqual([
      [ORG_A, 'USER'],
      [ORG_B, 'USER'],
    ]);
    expect(() => parseOrganizationMap('/ops=not-an-id:ADMIN')).toThrow('OIDC_ORG_MAP maps "/ops" to "not-an-id:ADMIN": expected <organization id>:ADMIN or <organization id>:USER');
    expect(() => parseOrganizationMap(`/ops=${ORG_A}:CREATOR`)).toThrow('OIDC_ORG_MAP maps "/ops" to the role "CREATOR": an organization role given by a group is ADMIN or USER');
  });
});
