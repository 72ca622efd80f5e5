import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, startTcpEcho, tcpExchange, type LocalService } from '../apps/server/src/modules/tunnels/local-service.test-support.js';
import { admin, user } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';
import { startLiveDevice, type LiveDevice } from './support/live-device';
import { screenshotPath } from './support/screenshots';

/**
 * Issue 29, Playwright: register an HTTP tunnel to a page served on this machine, connect it, open
 * its mapping link in the browser and see the page (through the built-in proxy at
 * http://{path}.localhost:{port}), disconnect, edit, delete with its confirmation; a USER member
 * sees the cards without the buttons, and 'unknown' once the device is offline.
 */

const TEST_TIMEOUT_MS = 120_000;
const STAMP = Date.now().toString(36);

const suite = useConsoleSuite();
let live: LiveDevice | undefined;
let service: LocalService;

beforeAll(async () => {
  service = await startLocalService(`Device page ${STAMP}`);
  live = await startLiveDevice(suite, { organization: `Tunnels ${STAMP}`, device: `Tunneled box ${STAMP}` });
}, TEST_TIMEOUT_MS);

afterAll(async () => {
  await live?.stop();
  await service?.close();
});

describe('tunnels', () => {
  it('are registered, connected, opened in the browser, disconnected, edited and deleted', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, pageErrors } = await suite.signedIn(admin, `/devices/${live!.deviceId}/tunnels`);
    await page.getByRole('link', { name: 'Register new tunnel' }).click();
    await page.waitForURL(/\/tunnels\/new$/);
    await page.getByRole('heading', { name: 'Register new tunnel' }).waitFor();
    const crumbs = page.getByLabel('Breadcrumb');
    await expect.poll(async () => (await crumbs.innerText()).split(/\s*\/\s*/)).toEqual(['Devices', `Tunneled box ${STAMP}`, 'Network', 'New tunnel']);

    // SPEC §5 defaults and messages before anything is sent.
    expect(await page.getByRole('combobox', { name: 'Type' }).inputValue()).toBe('HTTP');
    expect(await page.getByRole('combobox', { name: 'Mode' }).inputValue()).toBe('Ephemeral');
    expect(await page.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).toBe('Tunnel');
    expect(await page.getByRole('textbox', { name: 'Host', exact: true }).inputValue()).toBe('localhost');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Port is required.').waitFor();
    await page.getByRole('textbox', { name: 'Port', exact: true }).fill('70000');
    await page.getByRole('textbox', { name: 'Port', exact: true }).blur();
    await page.getByText('Port must be less than 65536.').waitFor();
    await page.getByRole('textbox', { name: 'Port', exact: true }).fill(String(service.port));
    // The path follows the name until it is typed.
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`Local page ${STAMP}`);
    expect(await page.getByRole('textbox', { name: 'Path', exact: true }).inputValue()).toBe(`local-page-${STAMP}`);
    await page.screenshot({ path: screenshotPath('tunnel-form.png'), fullPage: true });
    await page.getByRole('button', { name: 'Save' }).click();

    await page.waitForURL(new RegExp(`/devices/${live!.deviceId}/tunnels$`));
    const card = page.getByTestId('tunnel-card').filter({ hasText: `Local page ${STAMP}` });
    await expect.poll(() => card.getByTestId('tunnel-state').innerText()).toBe('disconnected');
    const text = await card.innerText();
    for (const part of [`HTTP · port ${service.port}`, 'Ephemeral', `Domain: local-page-${STAMP}.localhost`, 'Security: any IP']) expect(text).toContain(part);

    // Connect: the status reloads, the mapping is a link, editing and removing wait for a disconnect.
    await card.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => card.getByTestId('tunnel-state').innerText(), { timeout: 30_000 }).toBe('connected');
    const mapping = `http://local-page-${STAMP}.localhost:${suite.stack.tunnelHttpPort}`;
    expect(await card.getByTestId('tunnel-mapping').getAttribute('href')).toBe(mapping);
    await card.getByRole('link', { name: `Edit tunnel Local page ${STAMP}` }).hover();
    await page.getByRole('tooltip', { name: 'Disconnect to edit' }).waitFor();
    await card.getByRole('button', { name: `Remove tunnel Local page ${STAMP}` }).hover();
    await page.getByRole('tooltip', { name: 'Disconnect to remove' }).waitFor();
    await page.screenshot({ path: screenshotPath('tunnels-connected.png'), fullPage: true });

    // The mapping link opens the device's page in the browser, through the proxy.
    const [opened] = await Promise.all([page.context().waitForEvent('page'), card.getByTestId('tunnel-mapping').click()]);
    await opened.getByRole('heading', { name: `Device page ${STAMP}` }).waitFor();
    expect(opened.url()).toBe(`${mapping}/`);
    expect(service.seen.at(-1)!.headers['x-forwarded-host']).toBe(`local-page-${STAMP}.localhost:${suite.stack.tunnelHttpPort}`);
    await opened.close();

    await card.getByRole('button', { name: 'Disconnect' }).click();
    await expect.poll(() => card.getByTestId('tunnel-state').innerText(), { timeout: 30_000 }).toBe('disconnected');
    expect(await card.getByTestId('tunnel-mapping').count()).toBe(0);

    // Edit: credentials make the security summary say so.
    await card.getByRole('link', { name: `Edit tunnel Local page ${STAMP}` }).click();
    await page.waitForURL(/\/tunnels\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: 'Update tunnel' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Port', exact: true }).inputValue()).toBe(String(service.port));
    await page.getByRole('textbox', { name: 'Username' }).fill('ops');
    await page.getByLabel('Password', { exact: true }).fill('s3cret');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(new RegExp(`/devices/${live!.deviceId}/tunnels$`));
    await expect.poll(() => card.innerText()).toContain('Security: with password');

    // Delete with the spec's question.
    await card.getByRole('button', { name: `Remove tunnel Local page ${STAMP}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`Delete tunnel for port ${service.port}?`).waitFor();
    await dialog.getByRole('button', { name: 'Yes' }).click();
    await expect.poll(() => card.count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('shows a connected TCP tunnel’s address as plain host:port text', { timeout: TEST_TIMEOUT_MS }, async () => {
    const echo = await startTcpEcho();
    try {
      const created = await suite.api(admin, 'POST', `/api/device/${live!.deviceId}/tunnel`, { type: 'TCP', port: echo.port, name: `Raw TCP ${STAMP}` });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const { page, pageErrors } = await suite.signedIn(admin, `/devices/${live!.deviceId}/tunnels`);
      const card = page.getByTestId('tunnel-card').filter({ hasText: `Raw TCP ${STAMP}` });
      await expect.poll(() => card.innerText()).toContain(`TCP · port ${echo.port}`);
      expect(await card.innerText()).not.toContain('Domain:');
      await card.getByRole('button', { name: 'Connect' }).click();
      await expect.poll(() => card.getByTestId('tunnel-state').innerText(), { timeout: 30_000 }).toBe('connected');
      const mapping = card.getByTestId('tunnel-mapping');
      expect(await mapping.innerText()).toMatch(/^localhost:\d+$/);
      expect(await mapping.getAttribute('href')).toBeNull();
      // What the card says is where the device's service answers.
      const round = await tcpExchange(Number((await mapping.innerText()).split(':')[1]), Buffer.from(`hello ${STAMP}`));
      expect(round.received.toString()).toBe(`hello ${STAMP}`);
      await card.getByRole('button', { name: 'Disconnect' }).click();
      await expect.poll(() => card.getByTestId('tunnel-state').innerText()).toBe('disconnected');
      expect(pageErrors).toEqual([]);
      await page.close();
    } finally {
      await echo.close();
    }
  });

  it('shows a USER member the cards without changing anything, and unknown once the device is offline', { timeout: TEST_TIMEOUT_MS }, async () => {
    const created = await suite.api(admin, 'POST', `/api/device/${live!.deviceId}/tunnel`, { port: service.port + 1, name: `Read only ${STAMP}` });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { page, pageErrors } = await suite.signedIn(user, `/devices/${live!.deviceId}/tunnels`);
    const card = page.getByTestId('tunnel-card').filter({ hasText: `Read only ${STAMP}` });
    await expect.poll(() => card.getByTestId('tunnel-state').innerText()).toBe('disconnected');
    expect(await card.getByRole('button', { name: 'Connect' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Register new tunnel' }).count()).toBe(0);

    // Once the device is offline nobody can tell: unknown, and the tooltip says why.
    await live!.agent.kill('SIGTERM');
    await expect.poll(async () => (await suite.api(user, 'GET', `/api/device/${live!.deviceId}`)).body.online, { timeout: 30_000 }).toBe(false);
    await page.reload();
    await expect.poll(() => card.getByTestId('tunnel-state').innerText()).toBe('unknown');
    await card.getByTestId('tunnel-state').hover();
    await page.getByRole('tooltip', { name: 'Device is offline, unable to check the status' }).waitFor();
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
