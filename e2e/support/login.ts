import type { Page } from 'playwright-core';

/** The provider's sign-in page: /idp/interaction/{uid}. */
export const PROVIDER_LOGIN_URL = /\/idp\/interaction\/[^/]+/;

/** Signs in on the provider's own page (it must already be showing or on its way). */
export async function signInAtProvider(page: Page, credentials: { email: string; password: string }): Promise<void> {
  // After a refused renewal the navigation to the provider was once aborted by another one (CI saw
  // net::ERR_ABORTED here in session.e2e, when the renewal handler and the route guard both
  // redirected; since issue 37 only the guard does). The test waits for the navigation that lands.
  await page.waitForURL(PROVIDER_LOGIN_URL).catch(async (err: Error) => {
    if (!/ERR_ABORTED|frame was detached/.test(err.message)) throw err;
    await page.waitForURL(PROVIDER_LOGIN_URL);
  });
  await page.getByLabel('Email').fill(credentials.email);
  await page.locator('input[name="password"]').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Opens `path` of the console signed out, signs in through the provider and waits until the console
 * shows the signed-in user at that same path.
 */
export async function signIn(
  page: Page,
  baseUrl: string,
  credentials: { email: string; password: string },
  path = '/',
): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await signInAtProvider(page, credentials);
  await page.waitForURL(`${baseUrl}${path}`);
  await page.getByTestId('profile-menu').waitFor();
}

/** Logs out through the profile menu; the provider ends its session and sends the browser back. */
export async function logOut(page: Page): Promise<void> {
  await page.getByTestId('profile-menu').hover();
  const endSession = page.waitForRequest(
    (request) => request.isNavigationRequest() && new URL(request.url()).pathname.startsWith('/idp/session/end'),
  );
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await endSession;
  // Back at the console, signed out: its guard sends the visitor to the provider's sign-in page.
  await page.waitForURL(PROVIDER_LOGIN_URL);
}
