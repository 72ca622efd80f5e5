import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { admin, user, type SeededAccount } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';

const TEST_TIMEOUT_MS = 120_000;
const STAMP = Date.now().toString(36);
const DEVICE_NAME = `Kiosk ${STAMP}`;
const RENAMED = `Kiosk ${STAMP} renamed`;

const suite = useConsoleSuite();
const { signedIn, api } = suite;

const tabLabels = (page: Page) => page.getByRole('navigation', { name: 'Device sections' }).getByRole('link').allInnerTexts();

describe('devices: a user registers, finds, opens, edits and deletes a device', () => {
  it('walks the whole life of a device as user@', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, pageErrors } = await signedIn(user, '/devices/new');
    await page.getByRole('heading', { name: 'Create new device' }).waitFor();

    // Defaults of SPEC §5; an emptied name shows its message once touched.
    const name = page.getByLabel('Name', { exact: false }).first();
    expect(await name.inputValue()).toBe('new device');
    expect(await page.getByLabel('Stable').isChecked()).toBe(true);
    await name.fill('');
    await name.blur();
    await page.getByText('Name is required.').waitFor();
    await page.getByRole('button', { name: 'Create device' }).click();
    expect(new URL(page.url()).pathname).toBe('/devices/new');

    await name.fill(DEVICE_NAME);
    await page.getByLabel('Description').fill('Lobby kiosk\nsecond floor');
    const tags = page.getByRole('combobox', { name: 'Tags' });
    await tags.fill(`lobby-${STAMP}`);
    await tags.press('Enter');
    await page.getByRole('button', { name: 'Create device' }).click();

    // A new device has no agent yet: only Install, Edit and Delete; the summary redirects to Install.
    await page.waitForURL(/\/devices\/[0-9a-f-]{36}\/install$/);
    const id = new URL(page.url()).pathname.split('/')[2]!;
    await page.getByRole('heading', { name: DEVICE_NAME }).waitFor();
    expect(await tabLabels(page)).toEqual(['Install', 'Edit', 'Delete']);
    await page.getByText('Agent not installed').count();
    expect(await page.getByTestId('install-device-id').innerText()).not.toContain(id);
    await page.getByRole('button', { name: 'Show device id' }).click();
    expect(await page.getByTestId('install-device-id').innerText()).toBe(id);
    await page.getByText('No agent downloads are available yet.', { exact: false }).waitFor();

    // The search box: Ctrl+K focuses it; the dropdown shows the match and the count; Enter opens the list.
    await page.keyboard.press('Control+K');
    await page.keyboard.type(STAMP);
    const dropdown = page.getByTestId('device-search-dropdown');
    await dropdown.getByText(DEVICE_NAME).waitFor();
    await dropdown.getByText('1 device found').waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/devices/search' && url.searchParams.get('search') === STAMP);
    await page.getByTestId('device-grid').getByText(DEVICE_NAME).waitFor();

    // The search page by tag prefix too; list mode is remembered after a reload.
    await page.goto(`${suite.stack.url}/devices/search?search=${encodeURIComponent(`lobby-${STAMP.slice(0, 3)}`)}`);
    await page.getByTestId('device-grid').getByText(DEVICE_NAME).waitFor();
    await page.getByRole('button', { name: 'List', exact: true }).click();
    await page.getByTestId('device-table').getByText(DEVICE_NAME).waitFor();
    await page.reload();
    await page.getByTestId('device-table').getByText(DEVICE_NAME).waitFor();
    expect(await page.getByTestId('device-grid').count()).toBe(0);

    // Recent devices on the landing page.
    await page.goto(`${suite.stack.url}/devices`);
    await page.getByTestId('recent-devices').getByText(DEVICE_NAME).waitFor();
    // The cookies behind both choices: per user, _dr2 for 90 days (SameSite lax), _dlm for 7 days.
    const cookies = await page.context().cookies();
    const days = (c: { expires: number }) => Math.round((c.expires * 1000 - Date.now()) / 86_400_000);
    const recent = cookies.find((c) => c.name.startsWith('_dr2_'))!;
    expect(recent.name.length).toBeGreaterThan('_dr2_'.length);
    expect(recent.sameSite).toBe('Lax');
    expect(days(recent)).toBe(90);
    const recorded = JSON.parse(Buffer.from(decodeURIComponent(recent.value), 'base64').toString('utf8'));
    expect(recorded[0]).toMatchObject({ id, name: DEVICE_NAME, online: false, lastAccessed: expect.any(Number) });
    expect(days(cookies.find((c) => c.name.startsWith('_dlm_'))!)).toBe(7);
    // …and in the Devices menu.
    await page.getByRole('button', { name: 'Devices' }).hover();
    await page.getByRole('menuitem', { name: DEVICE_NAME }).waitFor();
    await page.mouse.move(1000, 600);

    // Edit: labelled Update device; updating returns to the device list.
    await page.goto(`${suite.stack.url}/devices/${id}/edit`);
    await page.getByRole('button', { name: 'Update device' }).waitFor();
    await page.getByLabel('Name', { exact: false }).first().fill(RENAMED);
    await page.getByLabel('Early access').check();
    await page.getByRole('button', { name: 'Update device' }).click();
    await page.waitForURL((url) => url.pathname === '/devices/search');
    const updated = await api(user, 'GET', `/api/device/${id}`);
    expect(updated.body).toMatchObject({ name: RENAMED, branch: 'ACCEPTANCE', description: 'Lobby kiosk\nsecond floor', tags: [`lobby-${STAMP}`] });

    // Delete needs the checkbox.
    await page.goto(`${suite.stack.url}/devices/${id}/delete`);
    await page.getByText('Are you certain about deleting this device? Please be aware that this action is permanent and cannot be undone.').waitFor();
    await page.getByRole('button', { name: 'Delete this device' }).click();
    await page.getByText('You must confirm to proceed').waitFor();
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Delete this device' }).click();
    await page.waitForURL((url) => url.pathname === '/devices/search');
    expect((await api(user, 'GET', `/api/device/${id}`)).status).toBe(404);
    expect(pageErrors).toEqual([]);
  });

  it('rebuilds the search index from the /operator page as admin@', { timeout: TEST_TIMEOUT_MS }, async () => {
    const orgs = await api(admin, 'GET', '/api/device-organizations');
    const personal = orgs.body.find((o: { type: string }) => o.type === 'PERSONAL');
    expect((await api(admin, 'POST', '/api/device', { organization: personal.id, name: `Indexed ${STAMP}`, branch: 'PRODUCTION' })).status).toBe(201);
    const { page, pageErrors } = await signedIn(admin, '/operator');
    await page.getByRole('button', { name: 'Reindex devices index' }).click();
    const status = await page.getByRole('status').filter({ hasText: /indexed\.$/ }).innerText();
    const indexed = Number(/^(\d+)/.exec(status)?.[1]);
    expect(indexed).toBeGreaterThan(0);
    expect(pageErrors).toEqual([]);
  });

  it('does not show user@ a device of admin@’s personal organization', { timeout: TEST_TIMEOUT_MS }, async () => {
    const orgs = await api(admin, 'GET', '/api/device-organizations');
    const personal = orgs.body.find((o: { type: string }) => o.type === 'PERSONAL');
    const created = await api(admin, 'POST', '/api/device', { organization: personal.id, name: `Admin only ${STAMP}`, branch: 'PRODUCTION' });
    expect(created.status).toBe(201);

    const { page } = await signedIn(user, `/devices/${created.body.id}`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    // The page says it: no alert besides (issue 59).
    expect(await page.locator('[data-alert="error"]').count()).toBe(0);
    expect(await page.getByText(`Admin only ${STAMP}`).count()).toBe(0);

    await page.goto(`${suite.stack.url}/devices/search?search=${encodeURIComponent(`Admin only ${STAMP}`)}`);
    await page.getByText('No devices match', { exact: false }).waitFor();
  });
});
