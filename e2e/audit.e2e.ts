import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, user } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';
import { createCompany, startLiveDevice, type LiveDevice } from './support/live-device';
import { screenshotPath } from './support/screenshots';

/**
 * Issue 25, Playwright: an admin changes a device and runs a command, then finds both in
 * /operator/audit with a filter and exports them; an organization ADMIN sees its Activity tab, a
 * USER member does not.
 */

const TEST_TIMEOUT_MS = 120_000;
const STAMP = Date.now().toString(36);
const DEVICE = `Audited box ${STAMP}`;

const suite = useConsoleSuite();
let live: LiveDevice | undefined;
let deviceId: string;
let organizationId: string;

beforeAll(async () => {
  live = await startLiveDevice(suite, { organization: `Audit ${STAMP}`, device: DEVICE });
  deviceId = live.deviceId;
  organizationId = live.organizationId;
}, TEST_TIMEOUT_MS);

afterAll(() => live?.stop());

describe('audit trail: who did what, when', () => {
  it('shows an admin the device they changed and the command they ran, filtered, and exports them', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, pageErrors } = await suite.signedIn(admin, `/devices/${deviceId}/edit`);
    await page.getByRole('textbox', { name: 'Description' }).fill('Line 3, <b>packaging</b>');
    await page.getByRole('button', { name: 'Update device' }).click();
    await page.waitForURL(`${suite.stack.url}/devices/search`);

    await page.goto(`${suite.stack.url}/devices/${deviceId}/command`);
    await page.getByRole('textbox', { name: 'Parameter 1 value' }).fill('echo audited');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByTestId('command-answer').waitFor({ timeout: 15_000 });

    // Manage → Audit trail.
    await page.getByRole('button', { name: 'Manage' }).click();
    await page.getByRole('menuitem', { name: 'Audit trail' }).click();
    await page.waitForURL(`${suite.stack.url}/operator/audit`);
    const rows = page.getByTestId('audit-row');
    await rows.first().waitFor();
    // The admin's own sign-in is there too (the built-in provider records it).
    expect(await rows.filter({ hasText: 'Sign-in' }).count()).toBeGreaterThan(0);

    await page.getByRole('textbox', { name: 'Device' }).fill(DEVICE);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/device=/);
    await expect.poll(() => rows.count()).toBe(4); // created (by API), its agent enrolled, changed, command
    const texts = await rows.allInnerTexts();
    expect(texts[0]).toContain('Command');
    expect(texts[0]).toContain('command: echo audited');
    expect(texts[0]).toContain('exitCode: 0');
    expect(texts[0]).toContain(admin.email);
    expect(texts[1]).toContain('Device changed');
    expect(texts[1]).toContain('description: - → Line 3, <b>packaging</b>'); // text, not markup
    expect(texts[2]).toContain('Agent enrollment');
    expect(texts[2]).toContain('Device agent');
    expect(texts[3]).toContain('Device created');

    await page.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'Command' }).click();
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    await page.screenshot({ path: screenshotPath('audit-operator.png'), fullPage: true });

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^fleetlink-audit-\d{4}-\d{2}-\d{2}\.csv$/);
    // Saved as it streams from a one-time link, not gathered in the page first.
    expect(download.url()).toMatch(new RegExp(`^${suite.stack.url}/api/audit-export/[0-9a-f-]{36}\\?token=`));
    expect(page.url()).toContain('/operator/audit?');
    const csv = readFileSync((await download.path())!, 'utf8').split('\r\n');
    expect(csv).toHaveLength(3);
    expect(csv[1]).toContain(`,Command,command,Audit ${STAMP},${organizationId},${DEVICE},${deviceId},ok,,`);
    expect(pageErrors).toEqual([]);
  });

  it('gives an organization ADMIN its Activity tab and a USER member none', { timeout: TEST_TIMEOUT_MS }, async () => {
    // user@ creates an organization and makes admin@ one of its ADMINs (not its CREATOR).
    const orgId = await createCompany(suite, user, `Shared ${STAMP}`);
    const added = await suite.api(user, 'POST', `/api/organization/${orgId}/user`, { email: admin.email, role: 'ADMIN' });
    expect(added.status, JSON.stringify(added.body)).toBeLessThan(300);

    const managerView = await suite.signedIn(admin, `/organizations/${orgId}`);
    await managerView.page.getByText('ADMIN', { exact: true }).first().waitFor(); // its role, beside the name
    await managerView.page.getByRole('link', { name: 'Activity' }).click();
    await managerView.page.waitForURL(`${suite.stack.url}/organizations/${orgId}/activity`);
    const rows = managerView.page.getByTestId('audit-row');
    await expect.poll(() => rows.count()).toBe(2);
    const texts = await rows.allInnerTexts();
    expect(texts[0]).toContain('Member added');
    expect(texts[0]).toContain(`email: ${admin.email}`);
    expect(texts[1]).toContain('Organization created');
    expect(texts[1]).toContain(user.email);
    await managerView.page.screenshot({ path: screenshotPath('audit-organization.png'), fullPage: true });
    const [activity] = await Promise.all([managerView.page.waitForEvent('download'), managerView.page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(activity.suggestedFilename()).toMatch(/^fleetlink-activity-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = readFileSync((await activity.path())!, 'utf8').trim().split('\r\n');
    expect(lines.slice(1).map((l) => l.split(',')[5])).toEqual(['member.add', 'organization.create']);

    const memberView = await suite.signedIn(user, `/organizations/${organizationId}`);
    await memberView.page.getByRole('link', { name: 'Members' }).waitFor();
    expect(await memberView.page.getByRole('link', { name: 'Activity' }).count()).toBe(0);
    await memberView.page.goto(`${suite.stack.url}/organizations/${organizationId}/activity`);
    await memberView.page.getByText('Only the creator or an administrator of this organization can see its activity.').waitFor();
    expect(await memberView.page.getByTestId('audit-row').count()).toBe(0);
  });
});
