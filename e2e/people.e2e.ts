import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordLinkIn } from '../apps/server/src/modules/accounts/accounts.test-support.js';
import { startSmtpSink } from '../apps/server/src/testing/smtp-sink.js';
import { admin } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';
import { createCompany } from './support/live-device';
import { logOut, signInAtProvider } from './support/login';

/**
 * Issue 72, Playwright: an admin invites a colleague on Manage → People and adds them to an
 * organization (where adding someone nobody signs in as yet offers to invite them); the colleague,
 * in a browser of their own, opens the link the mail brought, chooses a password (a short one
 * refused first), signs in and sees the organization, then changes their password on My account
 * and turns two-factor authentication on there (the app's codes computed here from the key the page
 * shows), signs in again with a code; the admin sees them active, with two-factor on.
 */
const TEST_TIMEOUT_MS = 120_000;
const COLLEAGUE = { email: 'colleague@example.com', name: 'Cole League', password: 'a long and private phrase' };

// A real SMTP server, started before the console so the console is configured with it.
const sink = await startSmtpSink();
const suite = useConsoleSuite({ SMTP_URL: `smtp://127.0.0.1:${sink.port}`, CONTACT_TO: 'ops@fleetlink.example' });
let organization: string;

beforeAll(async () => {
  organization = await createCompany(suite, admin, 'People Harbour');
}, TEST_TIMEOUT_MS);
afterAll(() => sink.close());

describe('people', () => {
  it('invites a colleague who chooses a password from the mailed link, signs in and sees their organization', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, pageErrors } = await suite.signedIn(admin, '/');
    const people = `${suite.stack.url}/operator/people`;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Manage', exact: true }).click();
    await page.getByRole('menuitem', { name: 'People' }).click();
    await page.getByRole('heading', { name: 'People', level: 1 }).waitFor();
    const form = page.getByRole('form', { name: 'Invite a person' });
    await form.getByRole('textbox', { name: 'Email' }).fill('not-an-email');
    await form.getByRole('button', { name: 'Invite' }).click();
    await form.getByText('Email is not a valid email address.').waitFor();
    await form.getByRole('textbox', { name: 'Email' }).fill(COLLEAGUE.email);
    await form.getByRole('textbox', { name: 'Name' }).fill(COLLEAGUE.name);
    await form.getByRole('button', { name: 'Invite' }).click();
    await page.getByText(`Invitation mailed to ${COLLEAGUE.email}`).waitFor();
    const row = page.getByTestId('person-row').filter({ hasText: COLLEAGUE.email });
    await row.getByText('Invited').waitFor();
    // Their membership waits for them: the organization names them by email.
    await page.goto(`${suite.stack.url}/organizations/${organization}/members`);
    await page.getByRole('textbox', { name: 'Email' }).fill(COLLEAGUE.email);
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByTestId('member-row').filter({ hasText: COLLEAGUE.email }).waitFor();
    // Someone nobody signs in as yet: the page offers to invite them, and the mail goes to them.
    await page.getByRole('textbox', { name: 'Email' }).fill('second@example.com');
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByTestId('member-invitation').getByText('Nobody signs in as second@example.com yet').waitFor();
    await page.getByRole('button', { name: 'Invite them' }).click();
    await page.getByText('Invitation mailed to second@example.com').waitFor();
    await expect.poll(() => sink.mails.filter((m) => m.to.includes('second@example.com')).length, { timeout: 10_000 }).toBe(1);

    await expect.poll(() => sink.mails.filter((m) => m.to.includes(COLLEAGUE.email)).length, { timeout: 10_000 }).toBe(1);
    const link = passwordLinkIn(sink.mails.find((m) => m.to.includes(COLLEAGUE.email))!.raw);
    const colleague = await suite.open();
    await colleague.page.goto(link);
    await colleague.page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    expect(await colleague.page.title()).toBe('Choose your password — Fleetlink');
    await colleague.page.getByLabel('New password').fill('too short');
    await colleague.page.getByLabel('Repeat it').fill('too short');
    // The browser's own check (minlength) stops it first; the server says the same when it is sent anyway.
    await colleague.page.locator('form').evaluate((f: HTMLFormElement) => f.submit());
    await colleague.page.getByRole('alert').filter({ hasText: 'The password must be at least 12 characters.' }).waitFor();
    expect(await colleague.page.getByLabel('New password').getAttribute('aria-invalid')).toBe('true');
    await colleague.page.getByLabel('New password').fill(COLLEAGUE.password);
    await colleague.page.getByLabel('Repeat it').fill(COLLEAGUE.password);
    await colleague.page.getByRole('button', { name: 'Save password' }).click();
    await colleague.page.getByRole('heading', { name: 'Password saved' }).waitFor();
    await colleague.page.getByRole('link', { name: 'Sign in to Fleetlink' }).click();
    await signInAtProvider(colleague.page, COLLEAGUE);
    await colleague.page.getByTestId('profile-menu').waitFor();
    await colleague.page.goto(`${suite.stack.url}/organizations`);
    await colleague.page.getByTestId('organization-card').getByRole('heading', { name: 'People Harbour' }).waitFor();
    // Their own account: a new password, with the current one (a wrong one refused first).
    await colleague.page.getByTestId('profile-menu').click();
    await colleague.page.getByRole('menuitem', { name: 'My account' }).click();
    await colleague.page.getByRole('heading', { name: 'My account', level: 1 }).waitFor();
    const password = colleague.page.getByRole('form', { name: 'Your password' });
    await password.getByLabel(/^Current password/).fill('not my password');
    await password.getByLabel(/^New password/).fill('an even longer private phrase');
    await password.getByLabel('Repeat the new password').fill('an even longer private phrase');
    await password.getByRole('button', { name: 'Change password' }).click();
    await password.getByText('The current password is not right.').waitFor();
    await password.getByLabel(/^Current password/).fill(COLLEAGUE.password);
    await password.getByRole('button', { name: 'Change password' }).click();
    await password.getByText('Password changed').waitFor();

    // Two-factor authentication: the key the page shows is what the app would scan; a wrong code refused first.
    const card = colleague.page.getByTestId('two-factor-card');
    await card.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const setUp = card.getByRole('form', { name: 'Set up two-factor authentication' });
    const qr = setUp.getByRole('img', { name: 'QR code of the secret for your authenticator app' });
    await qr.waitFor();
    // Drawn under the console's CSP (a data: image).
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const key = (await setUp.getByTestId('two-factor-key').textContent())!;
    await setUp.getByLabel(/^Code from the app/).fill('000000');
    await setUp.getByRole('button', { name: 'Turn on' }).click();
    await setUp.getByText('The code is not right: type the one your authenticator app shows now.').waitFor();
    await setUp.getByLabel(/^Code from the app/).fill(await generate({ secret: key }));
    await setUp.getByRole('button', { name: 'Turn on' }).click();
    const codes = card.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    await card.getByRole('button', { name: 'I saved them' }).click();
    await card.getByText('On: signing in asks for a code from your authenticator app. 10 of 10 recovery codes left.').waitFor();

    // Signed out and in again: the password, then the app's code (the next one: a code is taken once).
    await logOut(colleague.page);
    await signInAtProvider(colleague.page, { email: COLLEAGUE.email, password: 'an even longer private phrase' });
    await colleague.page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    expect(await colleague.page.title()).toBe('Two-factor authentication — Fleetlink');
    await colleague.page.getByLabel('Code').fill(await generate({ secret: key, epoch: Math.floor(Date.now() / 1000) + 30 }));
    await colleague.page.getByRole('button', { name: 'Verify' }).click();
    await colleague.page.getByTestId('profile-menu').waitFor();
    await colleague.page.goto(`${suite.stack.url}/organizations`);
    await colleague.page.getByTestId('organization-card').getByRole('heading', { name: 'People Harbour' }).waitFor();
    expect(colleague.pageErrors).toEqual([]);

    // The admin sees them active, signed in a moment ago.
    await page.goto(people);
    await row.getByText('Active').waitFor();
    expect(await row.getByText('Never').count()).toBe(0);
    await row.getByRole('cell', { name: 'On', exact: true }).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
