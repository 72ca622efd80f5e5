// No zod here: the console's pages read roles on their first load, which loads no schema (issue 68).
import type { Me } from './auth.js';
import { mappedRoles, type RoleMapping } from './identity-map.js';

export const RealmRole = { User: 'USER', Admin: 'ADMIN' } as const;
export type RealmRole = (typeof RealmRole)[keyof typeof RealmRole];

/**
 * SPEC §6 'Roles come from the token (realm and per-client roles)': a role counts whether the token
 * holds it as a realm role or as a client role of the console's own client
 * (`resource_access.{OIDC_CLIENT_ID}.roles`), so a Keycloak realm that maps USER and ADMIN as client
 * roles works unchanged. Other clients' roles (Keycloak's `account`, say) grant nothing here.
 */
export function grantedRoles(
  realmRoles: readonly string[],
  clientRoles: Readonly<Record<string, readonly string[]>>,
  clientId: string,
): string[] {
  const own = Object.hasOwn(clientRoles, clientId) ? clientRoles[clientId]! : [];
  return [...new Set([...realmRoles, ...own])];
}

/**
 * The roles of a token's Keycloak-shaped claims (`realm_access.roles`, `resource_access.{client}.roles`)
 * and what they grant the console, with what the operator's group mapping adds: one reading for the
 * API, which verified the token, and the SPA, which only decides what to show. Anything malformed
 * reads as no role.
 */
export function rolesFromClaims(
  claims: Record<string, unknown>,
  clientId: string,
  mapping?: RoleMapping | null,
): Pick<Me, 'realmRoles' | 'clientRoles' | 'roles'> {
  const rolesOf = (container: unknown) => {
    const roles = container && typeof container === 'object' ? (container as { roles?: unknown }).roles : undefined;
    return Array.isArray(roles) ? roles.filter((role): role is string => typeof role === 'string') : [];
  };
  const access = claims.resource_access;
  const realmRoles = rolesOf(claims.realm_access);
  const clientRoles = Object.fromEntries(
    Object.entries(access && typeof access === 'object' ? access : {}).map(([client, roles]) => [client, rolesOf(roles)]),
  );
  const roles = [...new Set([...grantedRoles(realmRoles, clientRoles, clientId), ...mappedRoles(claims, mapping)])];
  return { realmRoles, clientRoles, roles };
}
