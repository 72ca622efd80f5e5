import { claimAt, claimValues, rolesFromClaims, type ApiTokenScope, type Me, type RoleMapping } from '@fleetlink/contract';

/** What a caller using a personal API token acts through (issue 62). */
export interface ApiTokenUse {
  id: string;
  name: string;
  scope: ApiTokenScope;
}

/**
 * The caller, read from a verified Keycloak-shaped access token or from a personal API token, and
 * the address the request came from (for the audit trail). Beyond what /me answers:
 * - `groups`: the values of the mapping claim (OIDC_ROLE_CLAIM), for OIDC_ORG_MAP at sign-in;
 * - `organizationLimit`: the only organizations an API token may reach, when it is limited;
 * - `apiToken`: the token the call came with.
 */
export type Principal = Me & {
  clientAddress?: string;
  groups?: string[];
  organizationLimit?: readonly string[];
  apiToken?: ApiTokenUse;
};

/** Who may see which organizations: a person's login, narrowed to a token's organizations when it is limited. */
export type Member = Pick<Principal, 'username' | 'organizationLimit'>;

/** How the console reads identity from claims: its own client, and the operator's group mapping. */
export interface ClaimReading {
  /** `OIDC_CLIENT_ID`: its client roles count as realm roles. */
  clientId: string;
  roleMapping?: RoleMapping | null;
  /** OIDC_ROLE_CLAIM: where the groups are. */
  groupClaim?: string;
}

export function principalFromClaims(claims: Record<string, unknown>, reading: ClaimReading): Principal {
  const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
  const subject = str(claims.sub) ?? '';
  return {
    subject,
    sessionId: str(claims.sid),
    // Keycloak puts the login name in preferred_username; membership is matched on it (SPEC §6).
    username: (str(claims.preferred_username) ?? str(claims.email) ?? subject).toLowerCase(),
    name: str(claims.name),
    email: str(claims.email),
    ...rolesFromClaims(claims, reading.clientId, reading.roleMapping),
    groups: reading.groupClaim ? claimValues(claimAt(claims, reading.groupClaim)) : [],
  };
}

/** True when the caller holds `role`, as a realm role or as a client role of the console. */
export const hasRole = (p: Principal, role: string) => p.roles.includes(role);

/**
 * True when the caller may act across the whole realm (every organization): a realm ADMIN, unless
 * they came with an API token limited to some organizations. The realm-wide routes, revoking anyone's
 * token and the live stream's server events all ask this.
 */
export const actsForTheRealm = (p: Principal) => hasRole(p, 'ADMIN') && !p.organizationLimit;
