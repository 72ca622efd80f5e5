/**
 * Identity mapping (issue 62): the identity provider's groups decide roles. `OIDC_ROLE_CLAIM` names
 * a claim of the access token (`groups`, or a nested path such as `attributes.teams`) and
 * `OIDC_ROLE_MAP` maps its values to realm roles; `OIDC_ORG_MAP` makes members of organizations.
 * One reading for the API, which grants, and the SPA, which only decides what to show.
 */

/** `OIDC_ROLE_CLAIM` and `OIDC_ROLE_MAP`, parsed: a claim value to the realm roles it grants. */
export interface RoleMapping {
  claim: string;
  map: Record<string, string[]>;
}

/** One `OIDC_ORG_MAP` entry: members of `group` are members of the organization with `role`. */
export interface OrganizationGrant {
  group: string;
  organizationId: string;
  role: 'ADMIN' | 'USER';
}

/**
 * The claim at `path`: a claim of that exact name first (providers put dots and slashes in claim
 * names, e.g. `https://example.com/groups`), else the dotted path through nested objects.
 */
export function claimAt(claims: Record<string, unknown>, path: string): unknown {
  if (Object.hasOwn(claims, path)) return claims[path];
  let at: unknown = claims;
  for (const key of path.split('.')) {
    if (!at || typeof at !== 'object' || Array.isArray(at) || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** A claim's values: an array of strings (others ignored), or a single string. */
export function claimValues(value: unknown): string[] {
  if (typeof value === 'string') return value ? [value] : [];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : [];
}

/** The realm roles the mapping grants for these claims; groups not in the map grant nothing. */
export function mappedRoles(claims: Record<string, unknown>, mapping: RoleMapping | null | undefined): string[] {
  if (!mapping) return [];
  const roles = claimValues(claimAt(claims, mapping.claim)).flatMap((group) => (Object.hasOwn(mapping.map, group) ? mapping.map[group]! : []));
  return [...new Set(roles)];
}

/** Splits `a=X,b=Y` at its commas and each entry at its last `=` (a group name may hold one). */
function entries(text: string, variable: string): [string, string][] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const at = entry.lastIndexOf('=');
      const key = entry.slice(0, at).trim();
      const value = entry.slice(at + 1).trim();
      if (at < 0 || !key || !value) throw new Error(`${variable} must list group=value pairs, comma separated: "${entry}" is not one`);
      return [key, value];
    });
}

const REALM_ROLES = ['USER', 'ADMIN'];

/** `/fleet-admins=ADMIN,/fleet-users=USER` (a group may be named twice to grant both). Throws with the variable's name. */
export function parseRoleMap(text: string): Record<string, string[]> {
  const map: Record<string, string[]> = {};
  for (const [group, role] of entries(text, 'OIDC_ROLE_MAP')) {
    if (!REALM_ROLES.includes(role)) throw new Error(`OIDC_ROLE_MAP maps "${group}" to "${role}": a realm role is USER or ADMIN`);
    map[group] = [...new Set([...(map[group] ?? []), role])];
  }
  return map;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `/acme-ops=<organization id>:ADMIN,/acme=<organization id>:USER`. Throws with the variable's name. */
export function parseOrganizationMap(text: string): OrganizationGrant[] {
  return entries(text, 'OIDC_ORG_MAP').map(([group, target]) => {
    const [organizationId = '', role = ''] = target.split(':');
    if (!UUID.test(organizationId)) throw new Error(`OIDC_ORG_MAP maps "${group}" to "${target}": expected <organization id>:ADMIN or <organization id>:USER`);
    if (role !== 'ADMIN' && role !== 'USER') throw new Error(`OIDC_ORG_MAP maps "${group}" to the role "${role}": an organization role given by a group is ADMIN or USER`);
    return { group, organizationId: organizationId.toLowerCase(), role };
  });
}

/** The organizations these groups make the person a member of, with the strongest role any of them gives there. */
export function grantedOrganizations(memberOf: readonly string[], grants: readonly OrganizationGrant[]): Map<string, 'ADMIN' | 'USER'> {
  const groups = new Set(memberOf);
  const granted = new Map<string, 'ADMIN' | 'USER'>();
  for (const g of grants) {
    if (!groups.has(g.group)) continue;
    if (granted.get(g.organizationId) !== 'ADMIN') granted.set(g.organizationId, g.role);
  }
  return granted;
}
