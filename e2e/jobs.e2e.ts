import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';
import { startLiveDevice, type LiveDevice } from './support/live-device';
import { screenshotPath } from './support/screenshots';

/**
 * Issue 64, Playwright: from /devices/search with a search typed, an admin runs a command on what
 * it found: the count is confirmed, the job's counts change live as the real agents answer, one
 * device's output opens, and the results export as CSV. The offline device waits, queued.
 */

const TEST_TIMEOUT_MS = 120_000;
const STAMP = Date.now().toString(36);

const suite = useConsoleSuite();
const live: LiveDevice[] = [];

beforeAll(async () => {
  live.push(await startLiveDevice(suite, { organization: `Jobs ${STAMP}`, device: `kiosk${STAMP} one` }));
  live.push(await startLiveDevice(suite, { organization: `Jobs two ${STAMP}`, device: `kiosk${STAMP} two` }));
  // One more that never comes online: it stays queued until the job expires.
  const offline = await suite.api(admin, 'POST', '/api/device', { organization: live[0]!.organizationId, name: `kiosk${STAMP} three`, branch: 'PRODUCTION' });
  expect(offline.status, JSON.stringify(offline.body)).toBe(201);
}, TEST_TIMEOUT_MS);

afterAll(() => Promise.all(live.map((l) => l.stop())));

describe('fleet jobs in the browser', () => {
  it('runs a command on the devices a search found: confirmed count, live counts, one output, CSV', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, pageErrors } = await suite.signedIn(admin, '/devices/search');
    await page.getByLabel('Search devices').fill(`kiosk${STAMP}`);
    await page.getByLabel('Search devices').press('Enter');
    await page.waitForURL(/search=kiosk/);
    await page.getByRole('link', { name: 'Run a command on these devices' }).click();
    await page.waitForURL(`${suite.stack.url}/jobs/new?search=kiosk${STAMP}`);
    await expect.poll(() => page.getByRole('textbox', { name: 'Search text' }).inputValue()).toBe(`kiosk${STAMP}`);

    await page.getByLabel('Parameter 1 value').fill('echo job-ran-on-$(hostname)');
    await page.getByRole('button', { name: 'Review' }).click();
    await expect.poll(() => page.getByTestId('job-confirm').innerText()).toBe("Run 'execute' on 3 devices?");
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);

    // No refresh: the counts move as the agents answer (live updates), the offline one stays queued.
    await expect.poll(() => page.getByTestId('count-succeeded').innerText(), { timeout: 20_000 }).toMatch(/2$/);
    await expect.poll(() => page.getByTestId('count-queued').innerText()).toMatch(/1$/);
    await expect.poll(() => page.getByTestId('job-progress').innerText()).toBe('Run 1: 2 of 3 done.');
    const rows = page.getByTestId('job-results').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    await page.screenshot({ path: screenshotPath('job-page.png'), fullPage: true });

    // One device's output, and its link to the device.
    await page.getByRole('button', { name: `Show output of kiosk${STAMP} one` }).click();
    await expect.poll(() => page.getByTestId('job-output').innerText()).toMatch(/job-ran-on-\S+/);
    await page.keyboard.press('Escape');
    expect(await page.getByRole('link', { name: `kiosk${STAMP} two` }).getAttribute('href')).toBe(`/devices/${live[1]!.deviceId}`);

    // Filtered by state: the queued one alone.
    await page.getByTestId('count-queued').click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain(`kiosk${STAMP} three`);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^job-[0-9a-f]{8}-run-1\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8').trim().split('\r\n');
    expect(csv[0]).toBe('Device,Device id,State,Exit code,Duration (ms),Started,Finished,Reason,Output,Errors');
    expect(csv).toHaveLength(4);
    expect(csv.filter((l) => l.includes('Succeeded') && l.includes('job-ran-on-'))).toHaveLength(2);
    expect(csv.filter((l) => l.includes('Queued'))).toHaveLength(1);

    // The job is listed under Manage → Jobs.
    await page.getByRole('button', { name: 'Manage' }).click();
    await page.getByRole('menuitem', { name: 'Jobs' }).click();
    await page.waitForURL(`${suite.stack.url}/jobs`);
    await page.getByRole('link', { name: `'execute' on devices matching 'kiosk${STAMP}'` }).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
