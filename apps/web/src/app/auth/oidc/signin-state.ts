/**
 * An unfinished sign-in: what the console must remember between sending the browser to the provider
 * and its coming back (or the silent check's answer): the PKCE verifier (RFC 7636), the nonce and
 * where to return. A redirect's is kept in localStorage under its random `state` id, because the
 * browser leaves the console's page meanwhile; it holds no token, is used once, and is dropped once
 * stale. A silent check's, answered to the page that asked, stays in that page's memory.
 */
export interface SigninState {
  id: string;
  verifier: string;
  nonce: string;
  redirect_uri: string;
  /** What the console carries through the sign-in: the page to return to. */
  data?: unknown;
  /** Seconds since the epoch. */
  created: number;
}

const PREFIX = 'fleetlink.signin.';

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** 32 random bytes, base64url: 43 characters, as RFC 7636 §4.1 recommends for the verifier. */
export const randomToken = (): string => base64url(crypto.getRandomValues(new Uint8Array(32)));

/** The S256 code challenge of a verifier (RFC 7636 §4.2). */
export async function codeChallenge(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

export function newSigninState(redirect_uri: string, data?: unknown): SigninState {
  return { id: randomToken(), verifier: randomToken(), nonce: randomToken(), redirect_uri, data, created: Math.floor(Date.now() / 1000) };
}

export function saveSigninState(state: SigninState, storage: Storage = localStorage): void {
  storage.setItem(PREFIX + state.id, JSON.stringify(state));
}

/** The sign-in a provider's answer names, removed as it is read: a replayed answer finds none. */
export function takeSigninState(id: string, storage: Storage = localStorage): SigninState | undefined {
  const key = PREFIX + id;
  const stored = storage.getItem(key);
  storage.removeItem(key);
  if (!stored) return undefined;
  try {
    return JSON.parse(stored) as SigninState;
  } catch {
    return undefined;
  }
}

/** Drops the sign-ins older than `maxAgeSeconds` (never finished: the visitor closed the provider's page). */
export function clearStaleSigninStates(maxAgeSeconds: number, storage: Storage = localStorage): void {
  const now = Date.now() / 1000;
  for (const key of Object.keys(storage)) {
    if (!key.startsWith(PREFIX)) continue;
    let created = 0;
    try {
      created = Number((JSON.parse(storage.getItem(key) ?? '{}') as Partial<SigninState>).created) || 0;
    } catch {
      // Unreadable: stale by definition.
    }
    if (now - created > maxAgeSeconds) storage.removeItem(key);
  }
}
