import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderBrowser } from '../testing/provider-browser.js';
import { startTestConsole, type TestConsole } from '../testing/test-console.js';
import { passwordLogin } from './password-login.js';

const xsrfOf = (html: string) => /name="xsrf" value="([0-9a-f]+)"/.exec(html)?.[1];

describe('logout at the built-in provider', () => {
  let c: TestConsole;
  beforeAll(async () => {
    c = await startTestConsole();
  });
  afterAll(async () => c?.close());

  const signIn = async (email: string, password: string) => {
    const browser = new ProviderBrowser(c.url);
    const tokens = await passwordLogin({ consoleUrl: c.url, email, password, jar: browser.jar });
    expect(await browser.signedIn()).toBe(true);
    return { browser, idToken: tokens.id_token! };
  };

  it('asks before ending the session when the request does not hold its ID token (another site’s link)', async () => {
    const { browser } = await signIn('user@fleetlink.local', 'user');
    const { idToken: someoneElses } = await signIn('guest@fleetlink.local', 'guest');
    for (const path of ['/idp/session/end', `/idp/session/end?id_token_hint=${someoneElses}`]) {
      const res = await browser.fetch(path, { headers: { 'sec-fetch-site': 'cross-site' } });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('<h1>Sign out of Fleetlink?</h1>');
      expect(html).toContain('Sign out only if you asked for it.');
      // Nothing submits the form by itself.
      expect(html).not.toContain('<script');
      expect(await browser.signedIn()).toBe(true);
    }
    // A forged confirmation without the page's one-time xsrf value ends nothing either.
    const forged = await browser.fetch('/idp/session/end/confirm', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'logout=yes',
    });
    expect(forged.status).toBe(400);
    expect(await browser.signedIn()).toBe(true);
  });

  it("signs out straight away with the session's own ID token, as the console's Logout sends it", async () => {
    const { browser, idToken } = await signIn('user@fleetlink.local', 'user');
    const page = await browser.fetch(`/idp/session/end?id_token_hint=${idToken}&post_logout_redirect_uri=${encodeURIComponent(`${c.url}/`)}`);
    const html = await page.text();
    expect(html).toContain('<h1>Signing out…</h1>');
    expect(html).toContain('<script src="/idp/assets/logout.js"></script>');
    // What the page's script does: submit its form.
    const done = await browser.fetch('/idp/session/end/confirm', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf: xsrfOf(html)!, logout: 'yes' }).toString(),
    });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`${c.url}/`);
    expect(await browser.signedIn()).toBe(false);
  });

  it('ends the session from the confirmation page when the person confirms', async () => {
    const { browser } = await signIn('user@fleetlink.local', 'user');
    const html = await (await browser.fetch('/idp/session/end')).text();
    const done = await browser.fetch('/idp/session/end/confirm', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf: xsrfOf(html)!, logout: 'yes' }).toString(),
    });
    expect(done.status).toBe(303);
    expect(await browser.signedIn()).toBe(false);
  });
});
