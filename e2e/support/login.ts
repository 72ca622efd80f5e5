import type { Page } from 'playwright-core';

/** The provider's sign-in page: /idp/interaction/{uid}. */
export const PROVIDER_LOGIN_URL = /\/idp\/interaction\/[^/]+/;

/** Signs in on the provider's own page (it must already be showing or on its way). */
export async function signInAtProvider(page: Page, credentials: { email: string; password: string }): Promise<void> {
  await page.waitForURL(PROVIDER_LOGIN_URL);
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
