import type { RealmRole } from '@fleetlink/contract';

/**
 * What a route declares in its `handle` (src/router/match.ts). Every route needs a signed-in user;
 * `roles` adds the realm roles it requires (all of them).
 */
export interface RouteAccess {
  roles?: RealmRole[];
}

function rolesOf(handle: unknown): string[] {
  if (!handle || typeof handle !== 'object') return [];
  const { roles } = handle as RouteAccess;
  return Array.isArray(roles) ? roles : [];
}

/** The roles required by a matched route branch: the union of what every matched route declares. */
export function requiredRoles(matches: ReadonlyArray<{ handle: unknown }>): string[] {
  return [...new Set(matches.flatMap((match) => rolesOf(match.handle)))];
}

/** Required roles the user lacks; empty means access is granted. */
export function missingRoles(required: readonly string[], granted: readonly string[]): string[] {
  return required.filter((role) => !granted.includes(role));
}
