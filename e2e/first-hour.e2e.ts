import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../apps/server/src/testing/test-console.js';
import { tempDir } from '../apps/server/src/modules/broker/broker.test-support.js';
import { hostKeyFile, startStandaloneProxy, type StandaloneProxy } from '../apps/server/src/modules/tunnels/standalone-proxy.test-support.js';
import { admin, user } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';
import { createCompany, startLiveDevice, type LiveDevice } from './support/live-device';
import { signIn } from './support/login';
import { screenshotPath } from './support/screenshots';

const agentVersion: string = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../apps/agent/package.json'), 'utf8')).version;

/** Issue 59: what a new operator meets in the first hour, on a console as `npm start` makes it. */
describe('the first hour', () => {
  // The built-in release, as on every console's first start (other specs turn it off).
  const suite = useConsoleSuite({ AGENT_BUILT_IN_RELEASE: 'true' });
  const dirs: string[] = [];
  let proxy: StandaloneProxy | undefined;
  let live: LiveDevice | undefined;
  afterAll(async () => {
    await proxy?.stop();
    await live?.stop();
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  it("offers a fresh console's Install page both downloads of its own agent, each with its command, the key masked", async () => {
    const organization = await createCompany(suite, admin, 'First hour');
    const created = await suite.api(admin, 'POST', '/api/device', { organization, name: 'first-device', branch: 'PRODUCTION' });
    const id: string = created.body.id;
    const { page, pageErrors } = await suite.signedIn(admin, `/devices/${id}/install`);
    await page.getByTestId('download-installer').waitFor();
    expect(await page.getByTestId('install-downloads-version').innerText()).toContain(`Agent version ${agentVersion} (release PRODUCTION ${agentVersion}, built in`);
    const masked = '•'.repeat(32);
    expect(await page.getByTestId('install-installer-command').innerText()).toBe(
      `printf %s ${masked} | sudo sh fleetlink-agent-${agentVersion}-linux-installer.sh --server ${suite.stack.url} --device ${id} --key-file -`,
    );
    expect(await page.getByTestId('install-portable-command').innerText()).toContain(`FLEETLINK_AGENT_KEY=${masked} ./fleetlink-agent-${agentVersion}/fleetlink-agent run`);
    await page.getByTestId('download-portable-how').getByRole('button', { name: 'Show command' }).click();
    expect(await page.getByTestId('install-portable-command').innerText()).toContain(`FLEETLINK_AGENT_KEY=${created.body.installationId} `);
    await page.screenshot({ path: screenshotPath('issue59-install-built-in.png'), fullPage: true });

    // The Releases page says which release is the built-in one.
    await page.goto(`${suite.stack.url}/agent/releases`);
    await page.getByTestId('release-built-in').waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('registers servers as they are: a proxy through the form that then signs in, a plain mqtt:// server without a trust store, shown unreachable', async () => {
    const { page, pageErrors } = await suite.signedIn(admin, '/servers/new');
    await page.getByRole('heading', { name: 'Register new server' }).waitFor();

    // A PROXY: username is its id, the password is required, and the standalone proxy signs in with both.
    const dir = tempDir('fleetlink-e2e-proxy-');
    dirs.push(dir);
    const key = hostKeyFile(dir);
    const sshPort = await freePort();
    await page.getByRole('radio', { name: 'Proxy' }).check();
    await page.getByRole('textbox', { name: 'URL', exact: true }).fill(`ssh://127.0.0.1:${sshPort}`);
    await page.getByRole('textbox', { name: 'Host key' }).fill(key.publicKey);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Password is required.').waitFor();
    expect(await page.getByTestId('server-proxy-username').inputValue()).toBe('');
    await page.getByLabel(/^Password/).fill('a-proxy-password-of-ours');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/servers$/);
    const { body: servers } = await suite.api(admin, 'GET', '/api/servers');
    const registered = servers.find((s: { url: string }) => s.url === `ssh://127.0.0.1:${sshPort}`);
    await page.getByTestId('server-card').filter({ hasText: `127.0.0.1:${sshPort}` }).getByRole('link', { name: 'Edit server' }).click();
    await page.getByRole('heading', { name: 'Update server' }).waitFor();
    expect(await page.getByTestId('server-proxy-username').inputValue()).toBe(registered.id);
    proxy = await startStandaloneProxy({
      FLEETLINK_CONSOLE_URL: suite.stack.url,
      PROXY_SERVER_ID: registered.id,
      PROXY_PASSWORD: 'a-proxy-password-of-ours',
      PROXY_HOST_KEY_FILE: key.file,
      PROXY_SSH_HOST: '127.0.0.1',
      PROXY_SSH_PORT: String(sshPort),
      PROXY_HTTP_HOST: '127.0.0.1',
      PROXY_HTTP_PORT: String(await freePort()),
      PROXY_DOMAIN: 'tunnels.example.com',
    });
    expect(proxy.output()).not.toContain('refused');

    // A plain mqtt:// message server: no trust store asked for, a note that the link is not encrypted.
    await page.goto(`${suite.stack.url}/servers/new`);
    const url = page.getByRole('textbox', { name: 'URL', exact: true });
    await url.fill('mqtts://127.0.0.1:1');
    expect(await page.getByTestId('server-plain-link').count()).toBe(0);
    const unreachablePort = await freePort(); // nothing listens there
    await url.fill(`mqtt://127.0.0.1:${unreachablePort}`);
    await page.getByTestId('server-plain-link').waitFor();
    await page.getByRole('textbox', { name: 'Username' }).fill('console');
    await page.getByLabel(/^Password/).first().fill('broker-password');
    await page.getByRole('textbox', { name: 'Blob base URL' }).fill('https://blobs.example.com/fleetlink');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/servers$/);
    const card = page.getByTestId('server-card').filter({ hasText: `mqtt://127.0.0.1:${unreachablePort}` });
    await card.getByTestId('server-connection').filter({ hasText: /^Unreachable since \d\d:\d\d: connection refused$/ }).waitFor({ timeout: 20_000 });
    // The built-in broker, beside it, is connected.
    await page.getByTestId('server-card').filter({ hasText: 'Built-in' }).filter({ hasText: 'MESSAGE' }).getByTestId('server-connection').filter({ hasText: /^Connected since/ }).waitFor();
    await page.screenshot({ path: screenshotPath('issue59-servers.png'), fullPage: true });
    // Retried with backoff and logged once, not once a second.
    await new Promise((r) => setTimeout(r, 4000));
    const lines = suite.stack.output().split('\n').filter((l) => l.includes(`127.0.0.1:${unreachablePort}`) && l.includes('unreachable'));
    expect(lines).toHaveLength(1);
    expect(pageErrors).toEqual([]);
  });

  it('shows an error once with a count, closes it after 10 s unless pointed at, and leaves it behind on another page', async () => {
    const { page, pageErrors } = await suite.open();
    await page.clock.install();
    await signIn(page, suite.stack.url, admin, '/servers');
    // The hub's answer, made to fail: what a person meets when a reload is refused.
    await page.route('**/api/servers-reload', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 'UNAVAILABLE', message: 'The hub is busy.' }) }),
    );
    const reload = async () => {
      await page.getByRole('button', { name: 'Reload message servers' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
    };
    const toast = page.getByRole('alert').filter({ hasText: 'The hub is busy.' });
    await reload();
    await toast.waitFor();
    await reload();
    await toast.locator('[data-alert-count]').filter({ hasText: '2 times' }).waitFor();
    expect(await toast.count()).toBe(1);
    await page.clock.fastForward(11_000);
    await toast.waitFor({ state: 'detached' });

    await reload();
    await toast.hover();
    await page.clock.fastForward(11_000);
    await page.waitForTimeout(300);
    expect(await toast.count()).toBe(1);
    // Another page: the alert stays behind.
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await toast.waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
  });

  it('keeps a device page whose refresh fails, and says once that a device deleted elsewhere was deleted', async () => {
    const organization = await createCompany(suite, admin, 'Refreshes');
    const created = await suite.api(admin, 'POST', '/api/device', { organization, name: 'blinking', branch: 'PRODUCTION' });
    const id: string = created.body.id;
    const { page, pageErrors } = await suite.open();
    await page.clock.install();
    await signIn(page, suite.stack.url, admin, `/devices/${id}/install`);
    await page.getByRole('heading', { name: 'blinking' }).waitFor();
    await page.getByTestId('install-downloads').waitFor();
    const alerts = page.locator('[data-alert="error"]');

    // The console restarts: its 60-second refresh finds nobody answering.
    const notice = page.getByTestId('device-refresh-failed');
    await suite.stack.restart(async () => {
      await page.clock.fastForward(61_000);
      await notice.waitFor();
      expect(await notice.innerText()).toContain('Could not refresh: The console did not answer.');
      expect(await page.getByRole('heading', { name: 'blinking' }).count()).toBe(1);
      expect(await page.getByTestId('install-downloads').count()).toBe(1);
      expect(await alerts.count()).toBe(0);
    });
    // Back: the next refresh finds it.
    await page.clock.fastForward(61_000);
    await notice.waitFor({ state: 'detached' });

    // Deleted elsewhere: said once, no alert, and no more asking.
    expect((await suite.api(admin, 'DELETE', `/api/device/${id}`)).status).toBe(204);
    await page.clock.fastForward(61_000);
    await page.getByTestId('device-deleted').getByRole('heading', { name: 'This device was deleted' }).waitFor();
    expect(await alerts.count()).toBe(0);
    let asked = 0;
    page.on('request', (r) => r.url().endsWith(`/api/device/${id}`) && asked++);
    // One more minute (not more: the session's tokens, which the clock ages too, would end and sign in again).
    await page.clock.fastForward(61_000);
    await page.waitForTimeout(500);
    expect(asked).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('shows only the tabs one can use, asks before a migration, and shows recent devices as they are now', async () => {
    live = await startLiveDevice(suite, { organization: 'Tabs', device: 'tabbed' });
    const id = live.deviceId;
    const tabs = async (page: import('playwright-core').Page) => {
      const nav = page.getByRole('navigation', { name: 'Device sections' });
      await nav.getByRole('link', { name: 'Summary' }).waitFor();
      return nav.getByRole('link').allInnerTexts();
    };

    // A USER member: no Edit or Delete, and their addresses lead to the Summary.
    const member = await suite.signedIn(user, `/devices/${id}/edit`);
    await member.page.waitForURL(new RegExp(`/devices/${id}$`));
    expect((await tabs(member.page)).map((t) => t.trim())).toEqual(['Summary', 'Network', 'Storage', 'Monitor', 'Install']);
    expect(await member.page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);

    // The admin (its organization's creator) has them; Migrate to asks first, and Cancel moves nothing.
    const other = await suite.api(admin, 'POST', '/api/server', {
      type: 'MESSAGE', url: 'mqtt://127.0.0.1:1', maxCapacity: 10, status: 'ONLINE', username: 'console', password: 'pw', blobBaseUrl: 'https://blobs.example.com',
    });
    expect(other.status).toBe(201);
    const { page, pageErrors } = await suite.signedIn(admin, `/devices/${id}/servers`);
    expect((await tabs(page)).map((t) => t.trim())).toEqual(['Summary', 'Network', 'Storage', 'Monitor', 'Install', 'Edit', 'Delete', 'Command', 'Terminal', 'Servers']);
    const card = page.getByTestId('device-server-card').filter({ hasText: 'MESSAGE' });
    await card.getByLabel('Migrate to').click();
    await page.getByRole('option', { name: /mqtt:\/\/127\.0\.0\.1:1 / }).click();
    expect(await page.getByTestId('migrate-question').innerText()).toBe('Move this device to mqtt://127.0.0.1:1?');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    const assigned = await suite.api(admin, 'GET', `/api/device/${id}/servers`);
    expect(assigned.body.map((s: { id: string }) => s.id)).not.toContain(other.body.id);

    // Recent devices: one without an agent says so, and an online one turns offline there when its agent stops.
    const organization = await createCompany(suite, admin, 'Recent');
    const bare = await suite.api(admin, 'POST', '/api/device', { organization, name: 'no-agent-yet', branch: 'PRODUCTION' });
    await page.goto(`${suite.stack.url}/devices/${bare.body.id}/install`);
    await page.getByRole('heading', { name: 'no-agent-yet' }).waitFor();
    await live.stop();
    live = undefined;
    await expect.poll(async () => (await suite.api(admin, 'GET', `/api/device/${id}`)).body.online, { timeout: 15_000 }).toBe(false);
    await page.goto(`${suite.stack.url}/devices`);
    const recent = page.getByTestId('recent-devices');
    await recent.getByRole('img', { name: 'Agent not installed' }).waitFor();
    expect(await recent.innerText()).toContain('Agent not installed');
    await recent.getByRole('img', { name: 'Offline' }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('shows a field\'s error as soon as it is dirty on the release and contact forms, as on every other form', async () => {
    const { page, pageErrors } = await suite.signedIn(admin, '/agent/releases/new');
    const version = page.getByRole('textbox', { name: 'Version' });
    await version.pressSequentially('x1');
    // Still in the field: no blur, no submit.
    await page.getByText('Version is not a valid, it contain invalid characters.').waitFor();
    expect(await version.evaluate((el) => el === document.activeElement)).toBe(true);

    await page.goto(`${suite.stack.url}/contact`);
    const name = page.getByRole('textbox', { name: 'Name' });
    await name.waitFor();
    // The signed-in name, which fits its 32 characters.
    expect(await name.inputValue()).toBe('Ada Admin');
    await name.fill('');
    await page.getByText('Name is required.').waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('keeps the storage row menu, the tag suggestions and the server cards usable at 390 px, with nothing scrolling sideways', async () => {
    live = await startLiveDevice(suite, { organization: 'An organization with a rather long name, Ltd.', device: 'pocket' });
    await suite.api(admin, 'PUT', `/api/device/${live.deviceId}`, { organization: live.organizationId, name: 'pocket', branch: 'PRODUCTION', tags: ['warehouse-north', 'warehouse-south'] });
    await suite.api(admin, 'POST', '/api/server', {
      type: 'PROXY', url: 'ssh://edge-proxy-with-a-long-host-name.example.com:2222', maxCapacity: 5, status: 'OFFLINE', organization: live.organizationId, password: 'pw-of-the-edge', hostKey: 'ssh-ed25519 AAAA',
    });
    const { page, pageErrors } = await suite.open({ width: 390, height: 844 });
    await signIn(page, suite.stack.url, admin, '/servers');
    const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    const inView = async (locator: import('playwright-core').Locator) => {
      const box = (await locator.boundingBox())!;
      return box.x >= 0 && box.x + box.width <= 390;
    };

    await page.getByTestId('server-card').filter({ hasText: 'edge-proxy' }).waitFor();
    expect(await sideways()).toBe(0);
    for (const link of await page.getByRole('link', { name: 'Edit server' }).all()) expect(await inView(link)).toBe(true);
    await page.screenshot({ path: screenshotPath('issue59-phone-servers.png'), fullPage: true });

    await page.goto(`${suite.stack.url}/devices/${live.deviceId}/file?path=${encodeURIComponent(tmpdir())}`);
    await page.getByTestId('file-row').first().waitFor();
    expect(await sideways()).toBe(0);
    const menu = page.getByRole('button', { name: /^Actions for / }).first();
    expect(await inView(menu)).toBe(true);
    await menu.click();
    await page.getByRole('menuitem').first().waitFor();
    await page.keyboard.press('Escape');
    await page.screenshot({ path: screenshotPath('issue59-phone-storage.png'), fullPage: true });

    await page.goto(`${suite.stack.url}/devices/new`);
    await page.getByRole('combobox', { name: 'Tags' }).fill('ware');
    await page.getByRole('option', { name: 'warehouse-north' }).waitFor();
    expect(await sideways()).toBe(0);
    // The suggestions leave the buttons free: the topmost element at Create device's middle is the button.
    const create = page.getByRole('button', { name: 'Create device' });
    const box = (await create.boundingBox())!;
    expect(await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest('button')?.textContent, [box.x + box.width / 2, box.y + box.height / 2])).toBe('Create device');
    await page.screenshot({ path: screenshotPath('issue59-phone-tags.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
