// No zod here: the page opens its socket on its first load, which loads no schema (issue 68).

/**
 * Live updates (issue 61): one WebSocket per page. The browser opens it, then sends its access token
 * as the first message (a bearer token, never a cookie, and never in the URL, where logs keep it);
 * the console answers `ready` and from then on small change events the page applies to its cache.
 */
export const LIVE_PATH = '/api/live';

/** How long the console waits for the token after the socket opened. */
export const LIVE_AUTH_TIMEOUT_MS = 10_000;

/** Close codes of the live socket, in the 4000 range the WebSocket protocol leaves to applications. */
export const LiveClose = {
  /** No token in time, a token not accepted, or the token expired: open again with a fresh one. */
  Unauthorized: 4401,
  /** The browser did not keep up with its events: open again and read everything once. */
  TooSlow: 4408,
  /** The console is stopping. */
  GoingAway: 1001,
} as const;
