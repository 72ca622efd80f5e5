import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';
import { startLiveDevice, type LiveDevice } from './support/live-device';
import { PROVIDER_LOGIN_URL } from './support/login';

const STAMP = Date.now().toString(36);

/** True when `target` holds the keyboard focus. */
const hasFocus = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/** What holds the focus, in a line: its tag, and its name or text. */
const focusedLine = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'body';
    return `${el.tagName.toLowerCase()}${el.hasAttribute('data-page-heading') ? '[page heading]' : ''}: ${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 60) ?? ''}`;
  });

/** Presses Tab (or Shift+Tab) until `target` has the focus, as a keyboard user would; fails past `most` presses. */
async function tabTo(page: Page, target: Locator, { most = 60, back = false } = {}): Promise<number> {
  for (let presses = 1; presses <= most; presses++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await hasFocus(target)) return presses;
  }
  throw new Error(`not reached with ${most} Tabs; focus is on ${await focusedLine(page)}`);
}

const announced = async (page: Page) => (await page.getByTestId('live-announcer').getAttribute('data-said')) ?? '';
/** How long the console may take to show what a key started (an agent's answer among it). */
const SOON = { timeout: 10_000 };

/**
 * Issue 71: the console with the keyboard alone. Every step is keys; after each, the test says
 * where the focus is, and what the live region said where a screen reader would be told.
 */
describe('keyboard only', () => {
  const suite = useConsoleSuite();
  let live: LiveDevice;
  beforeAll(async () => {
    live = await startLiveDevice(suite, { organization: `Keys ${STAMP}`, device: `keys-${STAMP}` });
  }, 90_000);
  afterAll(async () => {
    await live?.stop();
  });

  it('signs in, skips to the content, finds a device with Ctrl+K and the quick results, and runs a command', async () => {
    const { page, pageErrors } = await suite.open();
    await page.goto(`${suite.stack.url}/`);
    await page.waitForURL(PROVIDER_LOGIN_URL);
    // The provider's page starts in its Email field.
    expect(await focusedLine(page)).toMatch(/^input/);
    await page.keyboard.type(admin.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(admin.password);
    await page.keyboard.press('Enter');

    // Signed in: the home page's heading has the focus, and the page has its own title.
    const heading = page.locator('[data-page-heading]');
    await heading.waitFor();
    await expect.poll(() => hasFocus(heading), SOON).toBe(true);
    expect(await page.title()).toBe('Home — Fleetlink');

    // Back past the navigation, the first stop of the page is the skip link, which leads into the page.
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    expect(await skip.isVisible()).toBe(true); // in the document, shown only when focused
    await tabTo(page, skip, { back: true, most: 12 });
    expect(await skip.evaluate((el) => el.getBoundingClientRect().top >= 0)).toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await focusedLine(page)).toBe('body');
    await page.keyboard.press('Tab');
    expect(await hasFocus(skip)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');

    // Ctrl+K where there is no search box: the device search page, its box focused.
    await page.keyboard.press('Control+K');
    await page.waitForURL(`${suite.stack.url}/devices/search`);
    const box = page.getByRole('combobox', { name: 'Search devices' });
    await expect.poll(() => hasFocus(box), SOON).toBe(true);
    expect(await page.title()).toBe('Find devices — Fleetlink');

    // The quick results are a combobox: arrows choose, Escape closes, Enter opens the one chosen.
    await page.keyboard.type(`keys-${STAMP}`);
    const option = page.getByRole('option', { name: new RegExp(`keys-${STAMP}`) });
    await option.waitFor();
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await option.getAttribute('id'));
    expect(await option.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('option', { selected: true }).innerText()).toBe('See all');
    await page.keyboard.press('Escape');
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('ArrowDown');
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    expect(await option.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${suite.stack.url}/devices/${live.deviceId}`);
    await expect.poll(() => focusedLine(page), SOON).toBe(`h1[page heading]: keys-${STAMP}`);
    expect(await page.title()).toBe(`Summary — keys-${STAMP} — Fleetlink`);
    await expect.poll(() => announced(page), SOON).toBe(`Summary — keys-${STAMP}`);

    // Ctrl+K on a page with the box focuses it there.
    await page.keyboard.press('Control+K');
    await expect.poll(() => hasFocus(page.getByRole('combobox', { name: 'Search devices' })), SOON).toBe(true);

    // The Command tab, reached with Tab from the top of the page, opened with Enter.
    await page.keyboard.press('Escape');
    const commandTab = page.getByRole('link', { name: 'Command' });
    await tabTo(page, commandTab);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${suite.stack.url}/devices/${live.deviceId}/command`);
    // A tab keeps the focus; the page's new title is said.
    expect(await hasFocus(commandTab)).toBe(true);
    await expect.poll(() => announced(page), SOON).toBe(`Command — keys-${STAMP}`);

    const value = page.getByRole('textbox', { name: 'Parameter 1 value' });
    await tabTo(page, value);
    // A text field shows where the keyboard is: a 2 px ring, not only a recoloured border.
    expect(await value.evaluate((el) => [getComputedStyle(el).outlineStyle, getComputedStyle(el).outlineWidth])).toEqual(['solid', '2px']);
    await page.keyboard.type('sleep 1; echo "hello from the keyboard"');
    const run = page.getByRole('button', { name: 'Run' });
    await tabTo(page, run);
    await page.keyboard.press('Enter');
    // While the device works, the button that started it keeps the focus.
    await page.getByTestId('command-running').waitFor();
    expect(await hasFocus(run)).toBe(true);
    expect(await run.getAttribute('aria-disabled')).toBe('true');
    await page.getByTestId('command-answer').waitFor({ timeout: 15_000 });
    expect(await hasFocus(run)).toBe(true);
    await expect.poll(() => announced(page), SOON).toBe('execute: Exit code 0. hello from the keyboard');
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('creates a folder, opens it, and registers a tunnel with keys alone', async () => {
    const { page, pageErrors } = await suite.signedIn(admin, `/devices/${live.deviceId}/file`);
    const newFolder = page.getByRole('button', { name: 'New folder' });
    await newFolder.waitFor();
    await tabTo(page, newFolder);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    const name = dialog.getByRole('textbox', { name: 'Name' });
    await expect.poll(() => hasFocus(name), SOON).toBe(true);
    await page.keyboard.type(`keys-${STAMP}`);
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    // Back on the button that opened the dialog, the new folder listed.
    const folder = page.getByRole('button', { name: `keys-${STAMP}`, exact: true });
    await folder.waitFor();
    await expect.poll(() => hasFocus(newFolder), SOON).toBe(true);

    // Opening it: the focus goes to its name in the folder breadcrumb, and the folder is said.
    await tabTo(page, folder);
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedLine(page), SOON).toBe(`p: keys-${STAMP}`);
    expect(await page.locator('[aria-current="location"]').innerText()).toBe(`keys-${STAMP}`);
    await expect.poll(() => announced(page), SOON).toBe(`keys-${STAMP}: 0 entries.`);

    // A tunnel: the form's fields by Tab, sent with Enter; back on the list, the heading has the focus.
    await page.goto(`${suite.stack.url}/devices/${live.deviceId}/tunnels/new`);
    const port = page.getByRole('textbox', { name: 'Port', exact: true });
    await port.waitFor();
    await tabTo(page, port);
    // Tabbing past the empty field does not mark it: only a change or sending the form does.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await hasFocus(port)).toBe(true);
    expect(await port.getAttribute('aria-invalid')).toBeNull();
    // Sent without its port: the message is shown, said, and the field marked.
    await page.keyboard.press('Enter');
    await expect.poll(() => announced(page), SOON).toBe('One field needs a change: Port is required.');
    expect(await port.getAttribute('aria-invalid')).toBe('true');
    expect(await hasFocus(port)).toBe(true);
    await page.keyboard.type('8080');
    const tunnelName = page.getByRole('textbox', { name: 'Name', exact: true });
    await tabTo(page, tunnelName);
    await page.keyboard.press('Control+A');
    await page.keyboard.type(`Keys ${STAMP}`);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${suite.stack.url}/devices/${live.deviceId}/tunnels`);
    await page.getByText(`Keys ${STAMP}`).first().waitFor();
    await expect.poll(() => focusedLine(page), SOON).toBe(`h1[page heading]: keys-${STAMP}`);
    await expect.poll(() => announced(page), SOON).toBe(`Network — keys-${STAMP}`);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
