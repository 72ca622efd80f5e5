import { rolesFromClaims, type RoleMapping } from '@fleetlink/contract';

/**
 * Reads the Keycloak-shaped claims of an access token. The browser only needs them to decide what to
 * show; the API verifies every token itself, so the signature is deliberately not checked here.
 */

export interface AuthDetails {
  subject: string;
  sessionId: string | null;
  username: string | null;
  realmRoles: string[];
  /** Roles per client id, from `resource_access.{client}.roles`. */
  clientRoles: Record<string, string[]>;
  /** What the console grants: realm roles and the console client's roles (SPEC §6). */
  roles: string[];
}

type Claims = Record<string, unknown>;

/** Decodes the JSON payload of a JWT (base64url). Returns null for anything that is not a JWT. */
export function decodeJwtPayload(token: string): Claims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const base64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
    const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
    // TextDecoder, not atob alone: names in the token may be UTF-8 (e.g. 'José').
    const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return payload && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Claims) : null;
  } catch {
    return null;
  }
}

const stringOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

/**
 * Authentication details of an access token; an unreadable token has no roles at all. `clientId` is
 * the console's own client, whose client roles count like realm roles; `roleMapping` the operator's
 * groups-to-roles map (OIDC_ROLE_MAP), read as the API reads it.
 */
export function readAuthDetails(accessToken: string, clientId: string, roleMapping?: RoleMapping | null): AuthDetails {
  const claims = decodeJwtPayload(accessToken) ?? {};
  return {
    subject: stringOrNull(claims.sub) ?? '',
    sessionId: stringOrNull(claims.sid),
    username: stringOrNull(claims.preferred_username),
    ...rolesFromClaims(claims, clientId, roleMapping),
  };
}
