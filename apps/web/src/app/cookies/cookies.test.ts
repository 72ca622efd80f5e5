import { describe, expect, it } from 'vitest';
import { hasSessionHint, rememberSession, SESSION_HINT_COOKIE } from '../auth/session-hint';
import { deleteCookie, loadCookies, readCookie, writeCookie } from './cookies';

/** A Cookie Store as Chromium has it: getAll, set, and change events (another tab's writes). */
function fakeStore(initial: Record<string, string>) {
  const listeners: ((event: CookieChangeEvent) => void)[] = [];
  const sets: CookieInit[] = [];
  const deletes: CookieStoreDeleteOptions[] = [];
  return {
    sets,
    deletes,
    change: (changed: Record<string, string>, deleted: string[] = []) =>
      listeners.forEach((l) =>
        l({ changed: Object.entries(changed).map(([name, value]) => ({ name, value })), deleted: deleted.map((name) => ({ name })) } as unknown as CookieChangeEvent),
      ),
    store: {
      getAll: async () => Object.entries(initial).map(([name, value]) => ({ name, value })),
      set: async (init: CookieInit) => void sets.push(init),
      delete: async (options: CookieStoreDeleteOptions) => void deletes.push(options),
      addEventListener: (_type: string, listener: (event: CookieChangeEvent) => void) => void listeners.push(listener),
    } as unknown as CookieStore,
  };
}

describe('cookies through the Cookie Store API', () => {
  it('reads them once before rendering, follows changes, and writes them through the store', async () => {
    const fake = fakeStore({ _dlm_u1: 'list', _dr2_u1: 'eyJ9%3D' });
    await loadCookies(fake.store);
    expect(readCookie('_dlm_u1')).toBe('list');
    expect(readCookie('_dr2_u1')).toBe('eyJ9=');
    expect(readCookie('_dlm_u2')).toBeUndefined();

    // Another tab switches to grid and forgets the recent devices.
    fake.change({ _dlm_u1: 'grid' }, ['_dr2_u1']);
    expect(readCookie('_dlm_u1')).toBe('grid');
    expect(readCookie('_dr2_u1')).toBeUndefined();

    const before = Date.now();
    writeCookie('_dr2_u1', 'a=b', 90);
    expect(readCookie('_dr2_u1')).toBe('a=b');
    expect(fake.sets).toEqual([{ name: '_dr2_u1', value: 'a%3Db', expires: expect.any(Number), path: '/', sameSite: 'lax' }]);
    const days = (fake.sets[0].expires! - before) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(90);
    expect(days).toBeLessThan(90.001);
  });

  it('keeps a cookie without days until the browser closes, and deletes one', async () => {
    const fake = fakeStore({});
    await loadCookies(fake.store);
    expect(hasSessionHint()).toBe(false);
    rememberSession(true);
    expect(hasSessionHint()).toBe(true);
    // No expiry: a session cookie.
    expect(fake.sets).toEqual([{ name: SESSION_HINT_COOKIE, value: '1', path: '/', sameSite: 'lax' }]);
    rememberSession(false);
    expect(hasSessionHint()).toBe(false);
    expect(fake.deletes).toEqual([{ name: SESSION_HINT_COOKIE, path: '/' }]);
    writeCookie('_x', 'y');
    deleteCookie('_x');
    expect(readCookie('_x')).toBeUndefined();
  });
});
