/**
 * First-party cookies for the console's remembered choices (SPEC §9).
 *
 * Where the browser has the Cookie Store API (https and localhost), the cookies are read once before
 * the first render (`loadCookies`) and kept here, followed through the store's change events (another
 * tab's visit included), and written through it. Renders then read them synchronously without
 * touching `document.cookie`, a blocking API that Chromium reports in its Issues panel on every read.
 * Elsewhere (plain http on another host) `document.cookie` is read and written as before.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

type CookieStoreLike = Pick<CookieStore, 'getAll' | 'set' | 'addEventListener'>;

/** The cookies as the store last told, values still encoded; undefined without the Cookie Store API. */
let jar: { store: CookieStoreLike; values: Map<string, string> } | undefined;

export async function loadCookies(store: CookieStoreLike | undefined = 'cookieStore' in globalThis ? globalThis.cookieStore : undefined): Promise<void> {
  if (!store) return;
  try {
    const values = new Map((await store.getAll()).map((c) => [c.name ?? '', c.value ?? '']));
    store.addEventListener('change', (event) => {
      for (const c of event.changed) values.set(c.name ?? '', c.value ?? '');
      for (const c of event.deleted) values.delete(c.name ?? '');
    });
    jar = { store, values };
  } catch {
    // A store that refuses (an opaque origin, a sandboxed frame): document.cookie it is.
    jar = undefined;
  }
}

/** Cookies are namespaced by user id so two people sharing a browser keep their own choices. */
export function userCookieName(base: string, userId: string): string {
  return `${base}_${userId.replace(/[^A-Za-z0-9_-]/g, '')}`;
}

export function readCookie(name: string): string | undefined {
  if (jar) {
    const value = jar.values.get(name);
    return value === undefined ? undefined : decodeURIComponent(value);
  }
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

export function writeCookie(name: string, value: string, days: number): void {
  const encoded = encodeURIComponent(value);
  const expires = Date.now() + days * DAY_MS;
  if (jar) {
    // Kept here at once, so the next render reads it; the store writes it a moment later.
    jar.values.set(name, encoded);
    void jar.store.set({ name, value: encoded, expires, path: '/', sameSite: 'lax' }).catch(() => undefined);
    return;
  }
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${encoded}; Expires=${new Date(expires).toUTCString()}; Path=/; SameSite=Lax${secure}`;
}
