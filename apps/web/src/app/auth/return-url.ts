/**
 * The URL a user asked for travels through the provider as the sign-in `state` and is navigated to
 * after the callback. Only same-origin paths are accepted, so a crafted state cannot send the user
 * to another site (an open redirect).
 */

export const CALLBACK_PATH = '/auth/callback';

/** The current in-app location: path, query and hash. */
export function currentAppUrl(location: { pathname: string; search: string; hash: string }): string {
  return `${location.pathname}${location.search}${location.hash}`;
}

/** A safe in-app path to return to after sign-in; '/' for anything else. */
export function safeReturnUrl(state: unknown): string {
  if (typeof state !== 'string') return '/';
  // A single leading slash only: '//host' and '/\host' are protocol-relative URLs to other sites.
  if (!state.startsWith('/') || state.startsWith('//') || state.startsWith('/\\')) return '/';
  // Never come back to the callback itself: it would try to redeem a used code.
  if (state === CALLBACK_PATH || state.startsWith(`${CALLBACK_PATH}?`)) return '/';
  return state;
}
