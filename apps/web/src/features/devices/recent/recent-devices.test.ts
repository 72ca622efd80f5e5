import { describe, expect, it } from 'vitest';
import { userCookieName } from '../../../app/cookies/cookies';
import { forget, parseRecent, recordAccess, serializeRecent, type RecentDevice } from './recent-devices';

const dev = (id: string, t: number, name = `d${id}`): RecentDevice => ({ id, name, online: false, lastAccessed: t });

describe('recent devices', () => {
  it('keeps the 5 most recently accessed, newest first', () => {
    let list: RecentDevice[] = [];
    for (let i = 1; i <= 7; i++) list = recordAccess(list, { id: String(i), name: `d${i}`, online: i % 2 === 0 }, i * 1000);
    expect(list.map((d) => d.id)).toEqual(['7', '6', '5', '4', '3']);
    list = recordAccess(list, { id: '4', name: 'renamed', online: true }, 9000);
    expect(list.map((d) => d.id)).toEqual(['4', '7', '6', '5', '3']);
    expect(list[0]).toEqual({ id: '4', name: 'renamed', online: true, lastAccessed: 9000 });
    expect(forget(list, '7').map((d) => d.id)).toEqual(['4', '6', '5', '3']);
  });

  it('round-trips through base64 JSON, names in any script included', () => {
    const list = [dev('a', 2, 'Café ☕ 東京'), dev('b', 1)];
    const value = serializeRecent(list);
    expect(value).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect(JSON.parse(Buffer.from(value, 'base64').toString('utf8'))).toEqual(list);
    expect(parseRecent(value)).toEqual(list);
  });

  it('treats a damaged cookie as empty and drops malformed records', () => {
    expect(parseRecent(undefined)).toEqual([]);
    expect(parseRecent('%%%')).toEqual([]);
    expect(parseRecent(btoa('{"not":"a list"}'))).toEqual([]);
    expect(parseRecent(btoa(JSON.stringify([dev('a', 1), { id: 3 }])))).toEqual([dev('a', 1)]);
  });

  it('keeps each user’s list under a cookie name of their own', () => {
    expect(userCookieName('_dr2', 'user-1')).toBe('_dr2_user-1');
    expect(userCookieName('_dr2', 'user-1')).not.toBe(userCookieName('_dr2', 'user-2'));
    // A user id can never break out of the cookie name.
    expect(userCookieName('_dr2', 'a;b=c d')).toBe('_dr2_abcd');
  });
});
