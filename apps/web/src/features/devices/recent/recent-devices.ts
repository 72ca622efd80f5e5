/** SPEC §3 "Recent-device record", kept in cookie `_dr2` (base64 JSON), max 5, for 90 days. */
export interface RecentDevice {
  id: string;
  name: string;
  online: boolean;
  /** ms timestamp */
  lastAccessed: number;
}

export const RECENT_COOKIE = '_dr2';
export const RECENT_MAX = 5;
export const RECENT_DAYS = 90;

const isRecord = (v: unknown): v is RecentDevice => {
  const r = v as RecentDevice;
  return !!r && typeof r.id === 'string' && typeof r.name === 'string' && typeof r.online === 'boolean' && typeof r.lastAccessed === 'number';
};

/** Reads the cookie value; anything unreadable counts as no recent devices. */
export function parseRecent(value: string | undefined): RecentDevice[] {
  if (!value) return [];
  try {
    const list: unknown = JSON.parse(fromBase64(value));
    if (!Array.isArray(list)) return [];
    return sortRecent(list.filter(isRecord)).slice(0, RECENT_MAX);
  } catch {
    return [];
  }
}

export function serializeRecent(list: RecentDevice[]): string {
  return toBase64(JSON.stringify(list.map(({ id, name, online, lastAccessed }) => ({ id, name, online, lastAccessed }))));
}

const sortRecent = (list: RecentDevice[]) => [...list].sort((a, b) => b.lastAccessed - a.lastAccessed);

/** Records an access: the device moves to the front, the oldest falls off past 5. */
export function recordAccess(list: RecentDevice[], device: Omit<RecentDevice, 'lastAccessed'>, now = Date.now()): RecentDevice[] {
  const rest = list.filter((d) => d.id !== device.id);
  return sortRecent([{ ...device, lastAccessed: now }, ...rest]).slice(0, RECENT_MAX);
}

/** Removes a device (e.g. after it was deleted). */
export function forget(list: RecentDevice[], id: string): RecentDevice[] {
  return list.filter((d) => d.id !== id);
}

/** base64 of UTF-8 text (names may hold any character). */
function toBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function fromBase64(value: string): string {
  const bytes = Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}
