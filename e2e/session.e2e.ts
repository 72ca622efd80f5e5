import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { guest, user } from './support/accounts';
import { logOut, signIn, signInAtProvider } from './support/login';
import { useConsoleSuite } from './support/console-suite';

/**
 * Token lifetime in the browser: access tokens of this console live 30 s (the provider's minimum),
 * so the renewal 20 s before expiry happens within the test's time.
 */
const ACCESS_TOKEN_TTL_SECONDS = 30;
const TEST_TIMEOUT_MS = 90_000;

const suite = useConsoleSuite({ IDP_ACCESS_TOKEN_TTL: String(ACCESS_TOKEN_TTL_SECONDS) });

const isRefresh = (postData: string | null) => new URLSearchParams(postData ?? '').get('grant_type') === 'refresh_token';

/** The provider's token endpoint is down for refreshes: each fails at the network. Returns when each was tried. */
async function cutOffRefreshes(page: Page): Promise<number[]> {
  const tried: number[] = [];
  await page.route('**/idp/token', async (route) => {
    if (!isRefresh(route.request().postData())) return route.continue();
    tried.push(Date.now());
    await route.abort('internetdisconnected');
  });
  return tried;
}

/** The toast that says the provider cannot be reached to renew the session. */
const renewalToast = (page: Page) => page.locator('[data-alert="session-renewal"]');

describe('session', () => {
  it(
    'renews the access token with the refresh token before it expires',
    async () => {
      const { page } = await open();
      await signIn(page, suite.stack.url, user, '/privacy-policy');
      const signedInAt = Date.now();
      const refresh = await page.waitForResponse(
        (response) => response.url().endsWith('/idp/token') && isRefresh(response.request().postData()),
        { timeout: ACCESS_TOKEN_TTL_SECONDS * 1000 },
      );
      // Renewed while the old token still had its minimum validity (20 s) left.
      expect(Date.now() - signedInAt).toBeLessThan((ACCESS_TOKEN_TTL_SECONDS - 15) * 1000);
      expect(refresh.status()).toBe(200);
      const tokens = (await refresh.json()) as { access_token?: string; refresh_token?: string };
      expect(tokens.access_token).toBeTruthy();
      expect(tokens.refresh_token).toBeTruthy();
      // Still signed in, still on the same page.
      expect(page.url()).toBe(`${suite.stack.url}/privacy-policy`);
      await page.getByTestId('profile-menu').waitFor();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'sends the user to sign in again when renewal fails, and back to their page afterwards',
    async () => {
      const { page, context } = await open();
      await signIn(page, suite.stack.url, user, '/terms-service');
      // The refused renewal's answer is read as it passes (the provider's own response, untouched):
      // once it arrives the console navigates to sign-in at once, and its body is gone after that.
      const refusals: string[] = [];
      await page.route('**/idp/token', async (route) => {
        const response = await route.fetch();
        if (isRefresh(route.request().postData()) && response.status() === 400) refusals.push((await response.json()).error);
        await route.fulfill({ response });
      });

      // Logging out in a second tab ends the provider session, which revokes this tab's refresh token.
      const otherTab = await context.newPage();
      await otherTab.goto(`${suite.stack.url}/`);
      await otherTab.getByTestId('profile-menu').waitFor();
      await logOut(otherTab);

      // A renewal already under way while the other tab logged out may still succeed; the next one
      // must be refused.
      await expect.poll(() => refusals[0], { timeout: 2 * ACCESS_TOKEN_TTL_SECONDS * 1000, interval: 250 }).toBe('invalid_grant');
      await signInAtProvider(page, user);
      await page.waitForURL(`${suite.stack.url}/terms-service`);
      await page.getByTestId('profile-menu').waitFor();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'keeps the session while the provider cannot be reached, says so, and renews once it is back',
    async () => {
      const { page } = await open();
      await signIn(page, suite.stack.url, user, '/privacy-policy');
      const failed = await cutOffRefreshes(page);
      const toast = renewalToast(page);
      await toast.waitFor({ timeout: ACCESS_TOKEN_TTL_SECONDS * 1000 });
      expect(await toast.textContent()).toContain('The identity provider cannot be reached to renew your session.');
      // Retried, still signed in, still on the page.
      await expect.poll(() => failed.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
      expect(page.url()).toBe(`${suite.stack.url}/privacy-policy`);
      await page.getByTestId('profile-menu').waitFor();

      // Back: the next retry renews, and the toast goes.
      const renewed = page.waitForResponse((response) => response.url().endsWith('/idp/token') && isRefresh(response.request().postData()));
      await page.unroute('**/idp/token');
      expect((await renewed).status()).toBe(200);
      await toast.waitFor({ state: 'detached' });
      expect(page.url()).toBe(`${suite.stack.url}/privacy-policy`);
      await page.getByTestId('profile-menu').waitFor();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'sends the user to sign in once the access token expired without the provider coming back',
    async () => {
      const { page } = await open();
      await signIn(page, suite.stack.url, user, '/terms-service');
      await cutOffRefreshes(page);
      await renewalToast(page).waitFor({ timeout: ACCESS_TOKEN_TTL_SECONDS * 1000 });
      // At expiry the session is dropped and the user sent to sign in at the provider, whose own
      // session (only its token endpoint is cut off here) brings them straight back to their page.
      const signInAgain = page.waitForRequest((request) => new URL(request.url()).pathname === '/idp/auth' && request.frame() === page.mainFrame(), {
        timeout: ACCESS_TOKEN_TTL_SECONDS * 1000,
      });
      expect(new URL((await signInAgain).url()).searchParams.get('prompt')).toBeNull();
      await page.waitForURL(`${suite.stack.url}/terms-service`);
      await page.getByTestId('profile-menu').waitFor();
    },
    TEST_TIMEOUT_MS,
  );
});

describe('sign-in limit', () => {
  it(
    'says on the sign-in page how long to wait after repeated failures, refuses even the right password meanwhile, and lets it in after',
    async () => {
      const { page } = await open();
      await page.goto(`${suite.stack.url}/`);
      const alert = page.getByRole('alert');
      // Five free failures and a sixth, each told as a wrong password.
      for (let attempt = 1; attempt <= 6; attempt++) {
        await signInAtProvider(page, { email: guest.email, password: `wrong-${attempt}` });
        await expect.poll(() => alert.textContent()).toBe('Invalid email or password.');
      }
      await signInAtProvider(page, { email: guest.email, password: 'wrong-7' });
      await expect.poll(() => alert.textContent()).toMatch(/^Too many failed sign-ins for this account\. Try again in \d seconds?\.$/);
      // The email stays filled in; the right password is refused too while the wait is due.
      expect(await page.getByLabel('Email').inputValue()).toBe(guest.email);
      await signInAtProvider(page, guest);
      const message = (await alert.textContent()) ?? '';
      expect(message).toMatch(/^Too many failed sign-ins for this account\. Try again in \d seconds?\.$/);

      const seconds = Number(/in (\d+) second/.exec(message)![1]);
      await page.waitForTimeout(seconds * 1000 + 200);
      await signInAtProvider(page, guest);
      await page.waitForURL(`${suite.stack.url}/`);
      await page.getByTestId('profile-menu').waitFor();
    },
    TEST_TIMEOUT_MS,
  );
});

const open = () => suite.open();
