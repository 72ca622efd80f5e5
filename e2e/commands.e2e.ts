import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, user } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';
import { startLiveDevice, type LiveDevice } from './support/live-device';
import { screenshotPath } from './support/screenshots';

/**
 * Issue 24, Playwright: an admin runs a command on a live device from its Command page and reads
 * its output; a USER member of the same organization sees no Command tab and gets the
 * access-denied page at its URL.
 */

const TEST_TIMEOUT_MS = 120_000;
const STAMP = Date.now().toString(36);

const suite = useConsoleSuite();
let live: LiveDevice | undefined;
let deviceId: string;

beforeAll(async () => {
  live = await startLiveDevice(suite, { organization: `Commands ${STAMP}`, device: `Command box ${STAMP}` });
  deviceId = live.deviceId;
}, TEST_TIMEOUT_MS);

afterAll(() => live?.stop());

describe('commands: run a command on a live device from its Command page', () => {
  it('lets an admin run a command and read its output, with the form’s messages on bad rows', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, pageErrors } = await suite.signedIn(admin, `/devices/${deviceId}`);
    await page.getByRole('link', { name: 'Command' }).click();
    await page.waitForURL(`${suite.stack.url}/devices/${deviceId}/command`);
    const commandName = page.getByRole('combobox', { name: 'Command' });

    // SPEC §5: 'execute' and a first row named 'command' are there from the start.
    expect(await commandName.inputValue()).toBe('execute');
    expect(await page.getByRole('textbox', { name: 'Parameter 1 name' }).inputValue()).toBe('command');

    // An empty value is refused before anything is sent; so is a row without a name.
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByText('Value is required.').waitFor();
    await page.getByRole('button', { name: 'Add parameter' }).click();
    await page.getByRole('textbox', { name: 'Parameter 2 value' }).fill('5');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByText('Name is required.').waitFor();
    await page.getByRole('textbox', { name: 'Parameter 2 name' }).fill('timeout');

    // A command that takes a while: the spinner shows and the page stays usable meanwhile.
    await page.getByRole('textbox', { name: 'Parameter 1 value' }).fill('sleep 2; echo "hello from $(hostname)"; echo "<b>not bold</b>" >&2; exit 4');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByTestId('command-running').waitFor();
    await commandName.hover(); // the page answers while it waits
    const answer = page.getByTestId('command-answer');
    await answer.waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('command-running').count()).toBe(0);
    expect((await page.getByTestId('command-stdout').innerText()).trim()).toBe(`hello from ${hostname()}`);
    // Output is text, never markup.
    expect((await page.getByTestId('command-stderr').innerText()).trim()).toBe('<b>not bold</b>');
    expect(await page.getByTestId('command-outcome').innerText()).toBe('Exit code 4');
    expect(await page.getByTestId('command-duration').innerText()).toMatch(/^[2-9]\.\d s$/);

    // Huge output is cut, and the page says by how much.
    await page.getByRole('textbox', { name: 'Parameter 1 value' }).fill("head -c 1048576 /dev/zero | tr '\\0' x");
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByTestId('command-stdout-cut').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('command-stdout-cut').innerText()).toBe('Output cut: 960 KB more not shown.');

    // An unknown command: the agent's own words.
    await page.getByRole('button', { name: 'Remove parameter 2' }).click();
    await page.getByRole('button', { name: 'Remove parameter 1' }).click();
    await commandName.fill('reboot-now');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByTestId('command-error').getByText("Unknown command 'reboot-now'").waitFor({ timeout: 15_000 });

    await page.mouse.move(0, 0);
    await commandName.fill('execute');
    await page.getByRole('button', { name: 'Add parameter' }).click();
    await page.getByRole('textbox', { name: 'Parameter 1 name' }).fill('command');
    // Enter in the last field runs it (issue 59).
    await page.getByRole('textbox', { name: 'Parameter 1 value' }).fill('uname -a; df -h / | tail -1');
    await page.getByRole('textbox', { name: 'Parameter 1 value' }).press('Enter');
    await page.getByTestId('command-answer').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('command-stdout').innerText()).toContain('Linux');

    // The device's last commands are offered again, newest first.
    await page.getByTestId('command-history').click();
    const offered = await page.getByRole('option').allInnerTexts();
    expect(offered[0]).toBe('execute command=uname -a; df -h / | tail -1');
    expect(offered.filter((o) => o.startsWith('execute command=head -c 1048576 /dev/zero'))).toHaveLength(1);
    await page.getByRole('option', { name: /sleep 2/ }).click();
    expect(await page.getByRole('textbox', { name: 'Parameter 1 value' }).inputValue()).toContain('sleep 2;');
    expect(await page.getByRole('textbox', { name: 'Parameter 2 name' }).inputValue()).toBe('timeout');
    await page.screenshot({ path: screenshotPath('device-command.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it('shows a USER member no Command tab, and the access-denied page at its URL', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, pageErrors } = await suite.signedIn(user, `/devices/${deviceId}`);
    await page.getByRole('link', { name: 'Summary' }).waitFor();
    expect(await page.getByRole('link', { name: 'Command' }).count()).toBe(0);
    await page.goto(`${suite.stack.url}/devices/${deviceId}/command`);
    await page.getByTestId('access-denied').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/devices/${deviceId}/command`);
    const res = await suite.api(user, 'POST', `/api/device/${deviceId}/command`, { name: 'execute', parameters: [{ name: 'command', value: 'id' }] });
    expect(res.status).toBe(403);
    expect(pageErrors).toEqual([]);
  });
});
