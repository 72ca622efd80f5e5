/**
 * The JSON payload of a JWT (base64url), unverified: the browser reads tokens only to decide what to
 * show, and the API verifies every token itself. Null for anything that is not a JWT. No contract
 * import here: the bootstrap's OIDC client reads the ID token with it before the console is loaded.
 */
export function decodeJwtPayload(token: string): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const base64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
    const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
    // TextDecoder, not atob alone: names in the token may be UTF-8 (e.g. 'José').
    const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return payload && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
