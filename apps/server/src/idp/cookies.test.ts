import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestConsole, type TestConsole } from '../testing/test-console.js';
import { authorizationRequest, fetchWithCookies, signInForm } from './password-login.js';

/** The provider's Set-Cookie headers over one sign-in, each request sent with `headers`. */
async function signInCookies(base: string, headers: Record<string, string>): Promise<string[]> {
  const jar = new Map<string, string>();
  const set: string[] = [];
  // Redirects may name the forwarded scheme and host: follow them on the console itself.
  const go = async (url: string, init: RequestInit = {}) => {
    const target = new URL(url, base);
    const res = await fetchWithCookies(new URL(target.pathname + target.search, base), jar, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
    set.push(...res.headers.getSetCookie());
    return res;
  };
  const auth = authorizationRequest(base, 'fleetlink-console', { scope: 'openid', state: 'cookies' });
  let res = await go(auth.url);
  const uid = res.headers.get('location')!.split('/').pop();
  res = await go(`/idp/interaction/${uid}/login`, signInForm('user@fleetlink.local', 'user'));
  for (let hops = 0; hops < 5 && !res.headers.get('location')!.includes('/auth/callback'); hops++) res = await go(res.headers.get('location')!);
  expect(new URL(res.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  return set;
}

const names = (cookies: string[]) => [...new Set(cookies.map((c) => c.slice(0, c.indexOf('='))))].sort();
const attributes = (cookie: string) => cookie.split(';').slice(1).map((a) => a.trim().toLowerCase());

describe('the built-in provider’s cookies', () => {
  let c: TestConsole;
  beforeAll(async () => {
    // The console's own address is its proxy here, so a request can say it came over https.
    c = await startTestConsole({ TRUST_PROXY: 'loopback' });
  });
  afterAll(async () => c?.close());

  it('are SameSite=Lax without Secure over plain http, which Chromium accepts on localhost', async () => {
    const cookies = await signInCookies(c.url, {});
    // Its session among them; and no `.legacy` twins, which only SameSite=None needed.
    expect(names(cookies)).toEqual(expect.arrayContaining(['_interaction', '_interaction_resume', '_session']));
    expect(names(cookies).filter((n) => n.includes('legacy'))).toEqual([]);
    for (const cookie of cookies) {
      expect(attributes(cookie), cookie).toContain('samesite=lax');
      expect(attributes(cookie), cookie).not.toContain('secure');
      expect(attributes(cookie), cookie).toContain('httponly');
    }
  });

  it('are Secure and SameSite=Lax when the request came over https', async () => {
    const cookies = await signInCookies(c.url, { 'x-forwarded-proto': 'https' });
    expect(names(cookies)).toEqual(expect.arrayContaining(['_session']));
    for (const cookie of cookies) {
      expect(attributes(cookie), cookie).toContain('samesite=lax');
      expect(attributes(cookie), cookie).toContain('secure');
    }
  });
});
