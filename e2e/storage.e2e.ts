import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../apps/server/src/modules/broker/broker.test-support.js';
import { admin, user } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';
import { startLiveDevice, type LiveDevice } from './support/live-device';
import { screenshotPath } from './support/screenshots';

/**
 * Issue 26, Playwright: browse a live device's folders, into one and back by breadcrumb and by the
 * browser's back button, show hidden entries, create a folder, rename it, delete it with its
 * confirmations, and scan; a USER member browses without the changes; an offline device says so.
 */

const TEST_TIMEOUT_MS = 120_000;
const STAMP = Date.now().toString(36);

const suite = useConsoleSuite();
let live: LiveDevice | undefined;
let tree: string;

beforeAll(async () => {
  tree = tempDir('fleetlink-storage-e2e-');
  mkdirSync(path.join(tree, 'docs'));
  writeFileSync(path.join(tree, 'docs', 'manual.txt'), 'x'.repeat(4096));
  writeFileSync(path.join(tree, 'data.bin'), Buffer.alloc(3 * 1024 * 1024));
  writeFileSync(path.join(tree, '.secret'), 's');
  writeFileSync(path.join(tree, '<b>not bold'), '');
  mkdirSync(path.join(tree, 'many'));
  for (let i = 1; i <= 600; i++) writeFileSync(path.join(tree, 'many', `item${i}`), '');
  live = await startLiveDevice(suite, { organization: `Storage ${STAMP}`, device: `Storage box ${STAMP}` });
}, TEST_TIMEOUT_MS);

afterAll(async () => {
  await live?.stop();
  rmSync(tree, { recursive: true, force: true });
});

const folderUrl = (p: string) => `/devices/${live!.deviceId}/file?${new URLSearchParams({ path: p })}`;

describe('storage page', () => {
  it('lets the organization’s creator browse, create, rename, delete and scan', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, pageErrors } = await suite.signedIn(admin, folderUrl(tree));
    const rows = page.getByTestId('file-row');
    const names = () => rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-name')));
    await expect.poll(names).toEqual(['docs', 'many', '<b>not bold', 'data.bin']);
    expect(await rows.filter({ hasText: 'data.bin' }).innerText()).toContain('3.0 MB');
    expect(await page.getByText('not bold', { exact: true }).count()).toBe(0); // a name is text, never markup

    await page.getByRole('switch', { name: 'Show hidden' }).click();
    await expect.poll(names).toEqual(['docs', 'many', '.secret', '<b>not bold', 'data.bin']);
    expect(await rows.filter({ hasText: '.secret' }).innerText()).toContain('hidden');
    expect(page.url()).toContain('hidden=true');

    // Into a folder by its name, out by the breadcrumb, and back again with the browser.
    await page.getByRole('button', { name: 'docs', exact: true }).click();
    await expect.poll(names).toEqual(['manual.txt']);
    expect(new URL(page.url()).searchParams.get('path')).toBe(path.join(tree, 'docs'));
    const crumbs = page.getByTestId('folder-breadcrumb');
    expect(await crumbs.innerText()).toContain(path.basename(tree));
    await crumbs.getByRole('button', { name: path.basename(tree) }).click();
    await expect.poll(names).toEqual(['docs', 'many', '.secret', '<b>not bold', 'data.bin']);
    await page.goBack();
    await expect.poll(names).toEqual(['manual.txt']);
    await page.reload();
    await expect.poll(names).toEqual(['manual.txt']);
    await page.goBack();
    await expect.poll(names).toContain('docs');

    // New folder, with the name's message first.
    await page.getByRole('button', { name: 'New folder' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('../escape');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Name cannot contain / or \\.').waitFor();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('reports');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(names).toContain('reports');
    expect(existsSync(path.join(tree, 'reports'))).toBe(true);

    // Rename it.
    await page.getByRole('button', { name: 'Actions for reports' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('archive');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await expect.poll(names).toContain('archive');
    expect(await names()).not.toContain('reports');

    // Delete it: with something inside, a second question comes before everything goes.
    writeFileSync(path.join(tree, 'archive', 'kept.txt'), 'k');
    await page.getByRole('button', { name: 'Actions for archive' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    expect(await page.getByTestId('delete-question').innerText()).toBe('Delete folder archive?');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => page.getByTestId('delete-question').innerText()).toBe('The folder archive is not empty. Delete it with everything in it?');
    expect(existsSync(path.join(tree, 'archive', 'kept.txt'))).toBe(true);
    // The page asks: the device's refusal is no error to show besides (issue 59).
    expect(await page.locator('[data-alert="error"]').count()).toBe(0);
    await page.getByRole('button', { name: 'Delete everything' }).click();
    await expect.poll(names).not.toContain('archive');
    expect(existsSync(path.join(tree, 'archive'))).toBe(false);

    // Scan: the drive shows BUSY or goes straight to its result, which lists the folders here. A small
    // folder's scan ends at once, and the page hears it over its live socket (issue 61), within the
    // page's own fallback read of a busy drive (10 s).
    await page.getByRole('button', { name: 'Scan folder' }).click();
    const result = page.getByTestId('drive-scan-result');
    await result.waitFor({ timeout: 8000 });
    expect(await result.innerText()).toContain(`under ${tree}`);
    expect(await result.getByRole('row').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining('docs')]));
    // Above the listing, and its folders lead into them (issue 59).
    const [resultBox, tableBox] = [await result.boundingBox(), await page.getByTestId('file-row').first().boundingBox()];
    expect(resultBox!.y).toBeLessThan(tableBox!.y);
    await page.screenshot({ path: screenshotPath('storage-admin.png'), fullPage: true });
    await result.getByRole('button', { name: 'docs', exact: true }).click();
    await expect.poll(names).toEqual(['manual.txt']);
    expect(pageErrors).toEqual([]);
  });

  it('lets a USER member browse a long folder page by page, without changing anything', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, pageErrors } = await suite.signedIn(user, folderUrl(path.join(tree, 'many')));
    const rows = page.getByTestId('file-row');
    const paging = page.getByTestId('file-paging').first();
    await expect.poll(() => paging.textContent()).toContain('Entries 1–500 of 600');
    expect(await rows.count()).toBe(500);
    expect(await rows.first().getAttribute('data-name')).toBe('item1');
    await page.getByRole('button', { name: 'Next' }).first().click();
    await expect.poll(() => paging.textContent()).toContain('Entries 501–600 of 600');
    expect(await rows.count()).toBe(100);
    expect(await rows.last().getAttribute('data-name')).toBe('item600');
    expect(new URL(page.url()).searchParams.get('offset')).toBe('500');
    expect(await page.getByRole('button', { name: 'Next' }).first().isDisabled()).toBe(true);

    expect(await page.getByRole('button', { name: 'New folder' }).count()).toBe(0);
    // Files have a menu with Download only (issue 27); nothing there changes anything.
    await page.getByRole('button', { name: 'Actions for item600' }).click();
    expect(await page.getByRole('menuitem').allInnerTexts()).toEqual(['Download']);
    expect(pageErrors).toEqual([]);
  });

  it('tells that an offline device must be online to be browsed', { timeout: TEST_TIMEOUT_MS }, async () => {
    await live!.stop();
    await expect.poll(async () => (await suite.api(admin, 'GET', `/api/device/${live!.deviceId}`)).body.online, { timeout: 15_000 }).toBe(false);
    const { page } = await suite.signedIn(admin, folderUrl(tree));
    const notice = page.getByTestId('storage-offline');
    await notice.waitFor();
    expect(await notice.innerText()).toContain('The device is offline');
    expect(await notice.innerText()).toContain('must be online to browse its filesystems');
    expect(await page.getByTestId('file-table').count()).toBe(0);
  });
});
