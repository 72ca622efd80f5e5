import { apiTokenSecretPattern } from '@fleetlink/contract';
import { describe, expect, it } from 'vitest';
import { admin, user } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';
import { screenshotPath } from './support/screenshots';

const TEST_TIMEOUT_MS = 90_000;
const STAMP = Date.now().toString(36);

/** Every request logged, to show that the token's secret is in no line of it. */
const suite = useConsoleSuite({ LOG_LEVEL: 'debug' });

/**
 * Issue 62, Playwright: a person creates a personal API token on their profile page, copies it with
 * the copy button, a script (this test) calls the API with it, the person revokes it in the page and
 * the script's next call fails.
 */
describe('personal API tokens in the browser', () => {
  it('creates a token, copies it, uses it from a script, revokes it, and the call then fails', { timeout: TEST_TIMEOUT_MS }, async () => {
    const name = `deploy ${STAMP}`;
    const { page, context, pageErrors } = await suite.signedIn(user, '/devices/search');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.stack.url });

    // Profile menu → API tokens.
    await page.getByTestId('profile-menu').click();
    await page.getByRole('menuitem', { name: 'API tokens' }).click();
    await page.waitForURL(`${suite.stack.url}/profile/api-tokens`);
    await page.getByRole('heading', { name: 'API tokens', exact: true }).waitFor();

    const form = page.getByRole('form', { name: 'Create an API token' });
    await form.getByRole('button', { name: 'Create token' }).click();
    await form.getByText('Name is required.').waitFor();
    await form.getByRole('textbox', { name: 'Name' }).fill(name);
    await form.getByRole('radio', { name: 'Read and write' }).check();
    await form.getByRole('button', { name: 'Create token' }).click();

    // The secret, once, with its copy button.
    const created = page.getByTestId('new-api-token');
    await created.getByText('Copy it now: it is not shown again.').waitFor();
    const shown = (await page.getByTestId('new-api-token-secret').innerText()).trim();
    expect(shown).toMatch(apiTokenSecretPattern);
    await created.getByRole('button', { name: 'Copy token' }).click();
    await created.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    const secret = (await page.evaluate(() => navigator.clipboard.readText())).trim();
    expect(secret).toBe(shown);
    await page.screenshot({ path: screenshotPath('api-token-created.png'), fullPage: true });

    // A script calls the API with it, as the person.
    const me = await fetch(`${suite.stack.url}/api/me`, { headers: { authorization: `Bearer ${secret}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ username: user.email, roles: ['USER'] });

    // The list shows it, never its secret; once dismissed, the secret is gone from the page.
    await created.getByRole('button', { name: 'I have copied it' }).click();
    await created.waitFor({ state: 'detached' });
    const row = page.getByRole('table', { name: 'My API tokens' }).getByTestId('api-token-row').filter({ hasText: name });
    await row.waitFor();
    expect(await row.innerText()).toContain('Read and write');
    expect(await page.content()).not.toContain(secret);

    // Revoke, with the confirmation.
    await row.getByRole('button', { name: `Revoke token ${name}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`Revoke token ${name}?`).waitFor();
    await dialog.getByRole('button', { name: 'Yes' }).click();
    await row.waitFor({ state: 'detached' });

    const after = await fetch(`${suite.stack.url}/api/me`, { headers: { authorization: `Bearer ${secret}` } });
    expect(after.status).toBe(401);
    expect((await after.json()).message).toMatch(/^This API token was revoked on \d{4}-\d{2}-\d{2}: create a new one under API tokens in your profile\.$/);
    expect(pageErrors).toEqual([]);

    // Nothing of the secret in the console's log, which did log the calls made with it.
    await new Promise((r) => setTimeout(r, 300));
    const log = suite.stack.output();
    expect(log).toContain('/api/me');
    expect(log).not.toContain(secret);
    expect(log).not.toContain(secret.slice(4));
  });

  it("shows a realm ADMIN every user's tokens, and lets them revoke another's", { timeout: TEST_TIMEOUT_MS }, async () => {
    const name = `user script ${STAMP}`;
    const made = await suite.api(user, 'POST', '/api/api-tokens', { name, scope: 'READ' });
    expect(made.status).toBe(201);
    const { page, pageErrors } = await suite.signedIn(admin, '/profile/api-tokens');
    const everyone = page.getByRole('table', { name: "Every user's API tokens" });
    const row = everyone.getByTestId('api-token-row').filter({ hasText: name });
    await row.waitFor();
    expect(await row.innerText()).toContain(user.email);
    await page.screenshot({ path: screenshotPath('api-tokens-admin.png'), fullPage: true });
    await row.getByRole('button', { name: `Revoke token ${name}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
    await row.waitFor({ state: 'detached' });
    const after = await fetch(`${suite.stack.url}/api/me`, { headers: { authorization: `Bearer ${made.body.secret}` } });
    expect(after.status).toBe(401);
    expect(pageErrors).toEqual([]);
  });
});
