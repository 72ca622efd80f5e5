/**
 * Whether the hidden frame's question can be asked by a request instead: the provider's
 * authorization endpoint and the silent check page both on the console's own origin (the built-in
 * provider). Elsewhere the frame it is, since where a provider's redirects lead cannot be read across
 * origins.
 */
export function canFollowInPage(authorizationUrl: string, redirectUri: string): boolean {
  return [authorizationUrl, redirectUri].every((url) => new URL(url, window.location.href).origin === window.location.origin);
}

/**
 * Asks the provider whether its session is alive (the authorization request with prompt=none) by a
 * request of the page's own origin that follows the provider's redirects, cookies included, and
 * resolves with the URL they led to: the silent check page's, with the code or the error in it.
 * The hidden frame (silent-frame.ts) gets the same answer by loading two documents, the provider's
 * redirect and the silent check page, on the path of every page load's sign-in: on a phone's CPU
 * that was a few hundred milliseconds before the first question to the API could be asked (issue 68).
 */
export async function followInPage(authorizationUrl: string, redirectUri: string, timeoutSeconds: number): Promise<string> {
  const response = await fetch(authorizationUrl, { credentials: 'same-origin', cache: 'no-store', signal: AbortSignal.timeout(timeoutSeconds * 1000) });
  // Only the URL matters; the silent check page's body is not read.
  void response.body?.cancel().catch(() => undefined);
  const landed = new URL(response.url);
  const expected = new URL(redirectUri, window.location.href);
  // A provider that showed a page instead of answering prompt=none (which it must not) has no answer for us.
  if (landed.origin !== expected.origin || landed.pathname !== expected.pathname) {
    throw new Error(`The identity provider did not answer the sign-in check (it answered ${response.status} at ${landed.pathname}).`);
  }
  return response.url;
}
