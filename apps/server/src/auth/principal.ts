import { rolesFromClaims, type Me } from '@fleetlink/contract';

/**
 * The signed-in caller, read from a verified Keycloak-shaped access token, and the address the
 * request came from (for the audit trail; not part of what /me answers).
 */
export type Principal = Me & { clientAddress?: string };

/** `clientId` is the console's own client (`OIDC_CLIENT_ID`): its client roles count as realm roles. */
export function principalFromClaims(claims: Record<string, unknown>, clientId: string): Principal {
  const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
  const subject = str(claims.sub) ?? '';
  return {
    subject,
    sessionId: str(claims.sid),
    // Keycloak puts the login name in preferred_username; membership is matched on it (SPEC §6).
    username: (str(claims.preferred_username) ?? str(claims.email) ?? subject).toLowerCase(),
    name: str(claims.name),
    email: str(claims.email),
    ...rolesFromClaims(claims, clientId),
  };
}

/** True when the caller holds `role`, as a realm role or as a client role of the console. */
export const hasRole = (p: Principal, role: string) => p.roles.includes(role);
