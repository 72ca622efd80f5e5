import type { Me } from '@fleetlink/contract';

/**
 * The signed-in caller, read from a verified Keycloak-shaped access token, and the address the
 * request came from (for the audit trail; not part of what /me answers).
 */
export type Principal = Me & { clientAddress?: string };

export function principalFromClaims(claims: Record<string, unknown>): Principal {
  const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
  const roles = (v: unknown) =>
    Array.isArray((v as { roles?: unknown })?.roles) ? ((v as { roles: unknown[] }).roles.filter((r) => typeof r === 'string') as string[]) : [];
  const resourceAccess = (claims.resource_access ?? {}) as Record<string, unknown>;
  const subject = str(claims.sub) ?? '';
  return {
    subject,
    sessionId: str(claims.sid),
    // Keycloak puts the login name in preferred_username; membership is matched on it (SPEC §6).
    username: (str(claims.preferred_username) ?? str(claims.email) ?? subject).toLowerCase(),
    name: str(claims.name),
    email: str(claims.email),
    realmRoles: roles(claims.realm_access),
    clientRoles: Object.fromEntries(
      Object.entries(typeof resourceAccess === 'object' ? resourceAccess : {}).map(([k, v]) => [k, roles(v)]),
    ),
  };
}

export const hasRealmRole = (p: Principal, role: string) => p.realmRoles.includes(role);
