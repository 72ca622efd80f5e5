import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../apps/server/src/modules/broker/broker.test-support.js';
import { admin, user } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';
import { startLiveDevice, type LiveDevice } from './support/live-device';
import { screenshotPath } from './support/screenshots';

/**
 * Issue 27, Playwright: upload into a folder with the progress bar seen, replace a file only after
 * saying so, cancel an upload (nothing arrives), and download a file whose bytes match; a USER
 * member downloads but has no Upload.
 */

const TEST_TIMEOUT_MS = 120_000;
const STAMP = Date.now().toString(36);
const MiB = 1024 * 1024;

const suite = useConsoleSuite();
let live: LiveDevice | undefined;
let tree: string;
let source: string;

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const folderUrl = (p: string) => `/devices/${live!.deviceId}/file?${new URLSearchParams({ path: p })}`;
const blobs = () => {
  const dir = path.join(suite.stack.dataDir, 'blobs');
  return existsSync(dir) ? readdirSync(dir) : [];
};

/** Chromium sends request bodies at `bytesPerSecond`: slow enough to see an upload go, and to cancel it. */
async function throttleUploads(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
}

async function chooseFile(page: Page, file: string) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload' }).click()]);
  await chooser.setFiles(file);
}

beforeAll(async () => {
  tree = tempDir('fleetlink-transfers-e2e-');
  source = tempDir('fleetlink-transfers-source-');
  writeFileSync(path.join(tree, 'notes.txt'), 'the old notes');
  writeFileSync(path.join(source, 'notes.txt'), 'the new notes');
  writeFileSync(path.join(source, 'firmware.bin'), randomBytes(24 * MiB));
  writeFileSync(path.join(source, 'huge.iso'), Buffer.alloc(64 * MiB));
  live = await startLiveDevice(suite, { organization: `Transfers ${STAMP}`, device: `Transfer box ${STAMP}` });
}, TEST_TIMEOUT_MS);

afterAll(async () => {
  await live?.stop();
  rmSync(tree, { recursive: true, force: true });
  rmSync(source, { recursive: true, force: true });
});

describe('file transfers', () => {
  it('uploads with a progress bar, replaces only after asking, and downloads the same bytes', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, pageErrors } = await suite.signedIn(admin, folderUrl(tree));
    const rows = page.getByTestId('file-row');
    const names = () => rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-name')));
    await expect.poll(names).toEqual(['notes.txt']);

    await throttleUploads(page, 8 * MiB);
    await chooseFile(page, path.join(source, 'firmware.bin'));
    const progress = page.getByTestId('upload-progress');
    // The bar moves: some, but not all, of the file has gone.
    await expect.poll(() => progress.innerText()).toMatch(/Uploading firmware\.bin: [1-9]\d?% of 24\.0 MB/);
    expect(Number(await progress.getByRole('progressbar').getAttribute('aria-valuenow'))).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath('upload-progress.png') });
    await progress.waitFor({ state: 'detached', timeout: 30_000 });
    await expect.poll(names).toEqual(['firmware.bin', 'notes.txt']);
    expect(sha256(readFileSync(path.join(tree, 'firmware.bin')))).toBe(sha256(readFileSync(path.join(source, 'firmware.bin'))));

    // A name that is there already: replaced only after the question.
    await chooseFile(page, path.join(source, 'notes.txt'));
    expect(await page.getByTestId('replace-question').innerText()).toBe('notes.txt exists already in this folder. Replace it?');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(readFileSync(path.join(tree, 'notes.txt'), 'utf8')).toBe('the old notes');
    await chooseFile(page, path.join(source, 'notes.txt'));
    await page.getByRole('button', { name: 'Replace' }).click();
    await expect.poll(() => readFileSync(path.join(tree, 'notes.txt'), 'utf8')).toBe('the new notes');

    // Download: the file arrives with its name and its bytes.
    await page.getByRole('button', { name: 'Actions for firmware.bin' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe('firmware.bin');
    const saved = path.join(source, 'downloaded.bin');
    await download.saveAs(saved);
    expect(sha256(readFileSync(saved))).toBe(sha256(readFileSync(path.join(tree, 'firmware.bin'))));
    await expect.poll(blobs).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('cancels an upload: nothing arrives on the device and nothing stays on the console', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, pageErrors } = await suite.signedIn(admin, folderUrl(tree));
    await page.getByTestId('file-row').first().waitFor();
    await throttleUploads(page, 4 * MiB);
    await chooseFile(page, path.join(source, 'huge.iso'));
    const progress = page.getByTestId('upload-progress');
    await expect.poll(() => progress.innerText()).toMatch(/Uploading huge\.iso: \d+% of 64\.0 MB/);
    await progress.getByRole('button', { name: 'Cancel' }).click();
    await progress.waitFor({ state: 'detached' });
    expect(await page.locator('[data-alert="error"]').count()).toBe(0); // a cancel is not an error
    await expect.poll(blobs).toEqual([]);
    // The agent was fetching it already (it follows the upload): it removes its partial file on the cancel.
    await expect.poll(() => readdirSync(tree).filter((n) => n.endsWith('.part'))).toEqual([]);
    expect(readdirSync(tree)).not.toContain('huge.iso');
    expect(pageErrors).toEqual([]);
  });

  it('lets a USER member download, with no Upload', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, pageErrors } = await suite.signedIn(user, folderUrl(tree));
    await page.getByTestId('file-row').first().waitFor();
    expect(await page.getByRole('button', { name: 'Upload' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Actions for notes.txt' }).click();
    expect(await page.getByRole('menuitem').allInnerTexts()).toEqual(['Download']);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe('notes.txt');
    const saved = path.join(source, 'notes-downloaded.txt');
    await download.saveAs(saved);
    expect(readFileSync(saved, 'utf8')).toBe('the new notes');
    expect(pageErrors).toEqual([]);
  });
});
