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

type CookieStoreLike = Pick<CookieStore, 'getAll' | 'set' | 'delete' | 'addEventListener'>;

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

/** Writes a cookie kept `days` days, or, without `days`, until the browser is closed. */
export function writeCookie(name: string, value: string, days?: number): void {
  const encoded = encodeURIComponent(value);
  const expires = days === undefined ? undefined : Date.now() + days * DAY_MS;
  if (jar) {
    // Kept here at once, so the next render reads it; the store writes it a moment later.
    jar.values.set(name, encoded);
    void jar.store.set({ name, value: encoded, ...(expires === undefined ? {} : { expires }), path: '/', sameSite: 'lax' }).catch(() => undefined);
    return;
  }
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  const expiry = expires === undefined ? '' : `; Expires=${new Date(expires).toUTCString()}`;
  document.cookie = `${name}=${encoded}${expiry}; Path=/; SameSite=Lax${secure}`;
}

export function deleteCookie(name: string): void {
  if (jar) {
    jar.values.delete(name);
    void jar.store.delete({ name, path: '/' }).catch(() => undefined);
    return;
  }
  document.cookie = `${name}=; Max-Age=0; Path=/; SameSite=Lax`;
}
