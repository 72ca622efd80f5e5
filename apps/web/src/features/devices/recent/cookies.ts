/** Minimal first-party cookie access for the console's remembered choices (SPEC §9). */

const DAY_MS = 24 * 60 * 60 * 1000;

/** Cookies are namespaced by user id so two people sharing a browser keep their own choices. */
export function userCookieName(base: string, userId: string): string {
  return `${base}_${userId.replace(/[^A-Za-z0-9_-]/g, '')}`;
}

export function readCookie(name: string, source: string = document.cookie): string | undefined {
  for (const part of source.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

export function writeCookie(name: string, value: string, days: number): void {
  const expires = new Date(Date.now() + days * DAY_MS).toUTCString();
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${encodeURIComponent(value)}; Expires=${expires}; Path=/; SameSite=Lax${secure}`;
}

/** base64 of UTF-8 text (names may hold any character). */
export function toBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

export function fromBase64(value: string): string {
  const bytes = Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}
