// Not the package's index: the bootstrap reads the roles, and the index would bring every schema.
import { rolesFromClaims } from '@fleetlink/contract/roles';
import type { RoleMapping } from '@fleetlink/contract';
import { decodeJwtPayload } from './jwt-payload';

export { decodeJwtPayload };

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
