import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../apps/server/src/modules/broker/broker.test-support.js';
import { admin, user } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';
import { startLiveDevice, type LiveDevice } from './support/live-device';
import { screenshotPath } from './support/screenshots';

/**
 * Issue 28, Playwright: create a monitor from a file row on the Storage page, see its value on the
 * Monitor tab and on Summary, edit it, delete it with its confirmation; a missing path says why on
 * hover; a USER member reads monitors without changing them.
 */

const TEST_TIMEOUT_MS = 120_000;
const STAMP = Date.now().toString(36);

const suite = useConsoleSuite();
let live: LiveDevice | undefined;
let tree: string;

beforeAll(async () => {
  tree = tempDir('fleetlink-monitors-e2e-');
  writeFileSync(path.join(tree, 'app.log'), 'x'.repeat(2048));
  live = await startLiveDevice(suite, { organization: `Monitors ${STAMP}`, device: `Monitored box ${STAMP}` });
}, TEST_TIMEOUT_MS);

afterAll(async () => {
  await live?.stop();
  rmSync(tree, { recursive: true, force: true });
});

describe('monitors', () => {
  it('are created from a file row, shown on the Monitor tab and Summary, edited and deleted', { timeout: TEST_TIMEOUT_MS }, async () => {
    const log = path.join(tree, 'app.log');
    const { page, pageErrors } = await suite.signedIn(admin, `/devices/${live!.deviceId}/file?${new URLSearchParams({ path: tree })}`);
    await page.getByRole('button', { name: 'Actions for app.log' }).click();
    await page.getByRole('menuitem', { name: 'Monitor' }).click();

    // The form comes with the row's path and name; SPEC §5's messages before anything is sent.
    await page.waitForURL(/\/monitor\/new\?/);
    const crumbs = page.getByLabel('Breadcrumb');
    await expect.poll(async () => (await crumbs.innerText()).split(/\s*\/\s*/)).toEqual(['Devices', `Monitored box ${STAMP}`, 'Monitor', 'New monitor']);
    expect(await crumbs.getByRole('link', { name: 'Monitor', exact: true }).getAttribute('href')).toBe(`/devices/${live!.deviceId}/monitor`);
    const name = page.getByRole('textbox', { name: 'Name' });
    const where = page.getByRole('textbox', { name: 'Path' });
    expect(await where.inputValue()).toBe(log);
    expect(await name.inputValue()).toBe('app.log');
    expect(await page.getByRole('combobox', { name: 'Type' }).inputValue()).toBe('Last update');
    await name.fill('');
    await page.getByText('Name is required.').waitFor();
    await name.fill('app log size');
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Size' }).click();
    await page.getByRole('button', { name: 'Create monitor' }).click();

    // The Monitor tab: the card with its value in base 1024.
    await page.waitForURL(new RegExp(`/devices/${live!.deviceId}/monitor$`));
    const card = page.getByTestId('monitor-card').filter({ hasText: 'app log size' });
    await expect.poll(() => card.getByTestId('monitor-value').innerText()).toBe('2.0 KB');
    expect(await card.innerText()).toContain(log);
    await page.screenshot({ path: screenshotPath('monitors-admin.png'), fullPage: true });

    // Summary's System card lists it with its value.
    await page.getByRole('link', { name: 'Summary', exact: true }).click();
    const system = page.getByTestId('summary-system');
    await expect.poll(() => system.innerText()).toContain('Monitor app log size');
    expect(await system.innerText()).toContain('2.0 KB');

    // Edit: a last-update monitor shows 'dd MMM yyyy HH:mm'.
    utimesSync(log, new Date(2026, 2, 5, 14, 7), new Date(2026, 2, 5, 14, 7));
    await page.getByRole('link', { name: 'Monitor', exact: true }).click();
    await page.getByRole('link', { name: 'Edit monitor app log size' }).click();
    await page.waitForURL(/\/monitor\/[0-9a-f-]{36}$/);
    expect(await page.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('app log size');
    await page.getByRole('textbox', { name: 'Name' }).fill('app log changed');
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Last update' }).click();
    await page.getByRole('button', { name: 'Update monitor' }).click();
    const changed = page.getByTestId('monitor-card').filter({ hasText: 'app log changed' });
    await expect.poll(() => changed.getByTestId('monitor-value').innerText()).toBe('05 Mar 2026 14:07');
    expect(await page.getByTestId('monitor-card').filter({ hasText: 'app log size' }).count()).toBe(0);

    // A path that does not exist: '-', and why on hover.
    const missing = path.join(tree, 'gone.txt');
    const created = await suite.api(admin, 'POST', `/api/device/${live!.deviceId}/monitor`, { name: 'gone', type: 'VERSION', path: missing });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await page.reload();
    const gone = page.getByTestId('monitor-card').filter({ hasText: 'gone' });
    expect(await gone.getByTestId('monitor-value').innerText()).toBe('-');
    await gone.getByTestId('monitor-note').hover();
    await page.getByRole('tooltip').filter({ hasText: `'${missing}' does not exist.` }).waitFor();

    // Delete, after the question.
    await page.getByRole('button', { name: 'Remove monitor app log changed' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Delete monitor app log changed?').waitFor();
    await dialog.getByRole('button', { name: 'Yes' }).click();
    await expect.poll(() => page.getByTestId('monitor-card').filter({ hasText: 'app log changed' }).count()).toBe(0);
    expect(await page.getByTestId('monitor-card').count()).toBe(1);
    expect(pageErrors).toEqual([]);
  });

  it('lets a USER member read monitors, without the means to change them', { timeout: TEST_TIMEOUT_MS }, async () => {
    const made = await suite.api(admin, 'POST', `/api/device/${live!.deviceId}/monitor`, { name: 'for members', type: 'SIZE', path: tree });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { page, pageErrors } = await suite.signedIn(user, `/devices/${live!.deviceId}/monitor`);
    const card = page.getByTestId('monitor-card').filter({ hasText: 'for members' });
    await card.waitFor();
    expect(await card.getByRole('button').count()).toBe(0);
    expect(await card.getByRole('link').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Monitor new item' }).count()).toBe(0);
    await page.goto(`${suite.stack.url}/devices/${live!.deviceId}/monitor/new`);
    await page.getByText('Not allowed').waitFor();
    expect(pageErrors).toEqual([]);
  });
});
