import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, user } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';
import { startLiveDevice, type LiveDevice } from './support/live-device';
import { screenshotPath } from './support/screenshots';

/**
 * Issue 63, Playwright: an admin opens the Terminal tab of a live device, types into a real shell
 * on it and reads the answer; the terminal's size follows the window; a session that ended says
 * why and Reconnect opens a new one. A USER member sees no Terminal tab and gets the access-denied
 * page at its URL.
 */

const TEST_TIMEOUT_MS = 120_000;
const STAMP = Date.now().toString(36);

const suite = useConsoleSuite();
let live: LiveDevice | undefined;
let deviceId: string;

beforeAll(async () => {
  live = await startLiveDevice(suite, { organization: `Terminal ${STAMP}`, device: `Terminal box ${STAMP}` });
  deviceId = live.deviceId;
}, TEST_TIMEOUT_MS);

afterAll(() => live?.stop());

/** What the terminal shows, row by row (xterm.js draws its rows into the page). */
const screen = (page: Page) => page.locator('.xterm-rows').innerText();

async function waitForScreen(page: Page, match: RegExp, timeout = 15_000): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const found = (await screen(page)).match(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`the terminal never showed ${match}; it shows:\n${await screen(page)}`);
    await page.waitForTimeout(100);
  }
}

/** `stty size` as the shell on the device sees it, and the rows the page draws. */
async function sizes(page: Page, marker: string): Promise<{ rows: number; cols: number; drawnRows: number }> {
  await page.keyboard.type(`clear; echo ${marker}-$(stty size | tr ' ' x)\n`);
  const [, rows, cols] = await waitForScreen(page, new RegExp(`${marker}-(\\d+)x(\\d+)`));
  return { rows: Number(rows), cols: Number(cols), drawnRows: await page.locator('.xterm-rows > div').count() };
}

describe('terminal: a shell on a live device in the browser', () => {
  it('lets an admin type into a shell on the device; its size follows the window; Reconnect opens a new session', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, pageErrors } = await suite.signedIn(admin, `/devices/${deviceId}`);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('link', { name: 'Terminal' }).click();
    await page.waitForURL(`${suite.stack.url}/devices/${deviceId}/terminal`);
    await page.getByTestId('terminal-status').getByText('Connected').waitFor({ timeout: 20_000 });
    await page.getByTestId('terminal').click();

    await page.keyboard.type('uname -a\n');
    await waitForScreen(page, /Linux \S+ .*GNU\/Linux|Linux \S+ \d/);

    // Full-screen programs: top draws and quits on q; vi edits a file (where the machine has them).
    if (existsSync('/usr/bin/top')) {
      await page.keyboard.type('top\n');
      await waitForScreen(page, /load average/);
      await page.keyboard.press('q');
      await page.keyboard.type('clear\n');
    }
    if (existsSync('/usr/bin/vi')) {
      const file = path.join(tmpdir(), `fleetlink-terminal-${STAMP}.txt`);
      await page.keyboard.type(`vi ${file}\n`);
      await waitForScreen(page, /^~/m);
      await page.keyboard.type('ihello from vi');
      await page.keyboard.press('Escape');
      await page.keyboard.type(':wq\n');
      await page.keyboard.type(`clear; cat ${file}; rm ${file}\n`);
      await waitForScreen(page, /^hello from vi\s*$/m);
    }

    // The shell's size is the page's, and follows the window.
    const wide = await sizes(page, 'wide');
    expect(wide.rows).toBe(wide.drawnRows);
    expect(wide.cols).toBeGreaterThan(100);
    await page.setViewportSize({ width: 800, height: 600 });
    await page.waitForTimeout(300);
    const narrow = await sizes(page, 'narrow');
    expect(narrow.cols).toBeLessThan(wide.cols);
    expect(narrow.rows).toBeLessThan(wide.rows);
    expect(narrow.rows).toBe(narrow.drawnRows);

    // UTF-8 the shell prints shows as its characters (typed UTF-8 is in the integration test:
    // Playwright types characters a US keyboard lacks as an IME would, which is not a key press).
    await page.keyboard.type("printf 'gr\\303\\274\\303\\237e \\342\\234\\223\\n'\n");
    await waitForScreen(page, /^grüße ✓\s*$/m);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: screenshotPath('device-terminal.png'), fullPage: true });

    // A flood of output: the page keeps answering, and Ctrl+C stops it at once.
    await page.keyboard.type('yes flood\n');
    await waitForScreen(page, /flood\s+flood/);
    await page.waitForTimeout(3000);
    for (let i = 0; i < 5; i++) {
      const asked = Date.now();
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
      expect(Date.now() - asked).toBeLessThan(1000);
    }
    await page.keyboard.press('Control+C');
    await page.keyboard.type('clear; echo flood-"stopped"\n');
    await waitForScreen(page, /^flood-stopped\s*$/m, 30_000);

    // The shell ends: the page says why, and Reconnect opens a new session.
    await page.keyboard.type('exit\n');
    await page.getByTestId('terminal-status').getByText('The shell exited with code 0.').waitFor({ timeout: 15_000 });
    await page.screenshot({ path: screenshotPath('device-terminal-ended.png') });
    await page.getByTestId('terminal-reconnect').click();
    await page.getByTestId('terminal-status').getByText('Connected').waitFor({ timeout: 20_000 });
    await page.getByTestId('terminal').click();
    await page.keyboard.type('echo second-"session"\n');
    await waitForScreen(page, /second-session/);
    expect(pageErrors).toEqual([]);
  });

  it('shows a USER member no Terminal tab, and the access-denied page at its URL', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, pageErrors } = await suite.signedIn(user, `/devices/${deviceId}`);
    await page.getByRole('link', { name: 'Summary' }).waitFor();
    expect(await page.getByRole('link', { name: 'Terminal' }).count()).toBe(0);
    await page.goto(`${suite.stack.url}/devices/${deviceId}/terminal`);
    await page.getByTestId('access-denied').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/devices/${deviceId}/terminal`);
    expect(pageErrors).toEqual([]);
  });
});
