import { z } from 'zod';
import { mappedRoles, type RoleMapping } from './identity-map.js';

export const RealmRole = { User: 'USER', Admin: 'ADMIN' } as const;
export type RealmRole = (typeof RealmRole)[keyof typeof RealmRole];

/** What the SPA needs to find its identity provider; served unauthenticated at GET /api/config. */
export const publicConfigSchema = z.object({
  oidc: z.object({
    authority: z.string(),
    clientId: z.string(),
    scope: z.string(),
  }),
  /** `UPLOAD_MAX_BYTES`: the page refuses a bigger file before sending it. */
  uploadMaxBytes: z.number().int().positive(),
  /** `OIDC_ROLE_CLAIM` and `OIDC_ROLE_MAP`: the page grants what the API grants (issue 62). */
  roleMapping: z.object({ claim: z.string(), map: z.record(z.string(), z.array(z.string())) }).nullable().default(null),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

/** The signed-in user as the API sees it (GET /api/me). */
export const meSchema = z.object({
  subject: z.string(),
  sessionId: z.string().nullable(),
  username: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  realmRoles: z.array(z.string()),
  clientRoles: z.record(z.string(), z.array(z.string())),
  /** What the console grants: the realm roles and the client roles of its own client (`grantedRoles`). */
  roles: z.array(z.string()),
});
export type Me = z.infer<typeof meSchema>;

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
