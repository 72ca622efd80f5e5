import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../apps/server/src/testing/test-console.js';
import { admin } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';
import { startLiveDevice, type LiveDevice } from './support/live-device';
import { screenshotPath } from './support/screenshots';

/**
 * Issue 57 in Chromium: an admin connecting a TCP tunnel past the device's share reads why on the
 * Network tab, and deleting the device from its Delete tab closes its connected tunnel's port.
 */

const TEST_TIMEOUT_MS = 120_000;
const STAMP = Date.now().toString(36);
const tcpFrom = await freePort();

const suite = useConsoleSuite({ TUNNEL_TCP_MAX_PER_DEVICE: '1', TUNNEL_TCP_PORTS: `${tcpFrom}-${tcpFrom + 4}` });
let live: LiveDevice | undefined;

beforeAll(async () => {
  live = await startLiveDevice(suite, { organization: `Shares ${STAMP}`, device: `Share box ${STAMP}` });
}, TEST_TIMEOUT_MS);

afterAll(() => live?.stop());

/** Whether something listens on the port now. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

describe('a device’s share of the proxy, and its channels ending with it', () => {
  it('tells the admin why a second TCP tunnel is refused, and closes the first one’s port when the device is deleted', { timeout: TEST_TIMEOUT_MS }, async () => {
    const deviceId = live!.deviceId;
    for (const port of [7001, 7002]) {
      const created = await suite.api(admin, 'POST', `/api/device/${deviceId}/tunnel`, { port, type: 'TCP', name: `tcp ${port}` });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    const { page, pageErrors } = await suite.signedIn(admin, `/devices/${deviceId}/tunnels`);
    const card = (name: string) => page.getByTestId('tunnel-card').filter({ hasText: name });
    await card('tcp 7001').getByRole('button', { name: 'Connect' }).click();
    const mapping = await card('tcp 7001').getByTestId('tunnel-mapping').textContent({ timeout: 15_000 });
    const port = Number(mapping!.split(':').at(-1));
    expect(await listening(port)).toBe(true);

    await card('tcp 7002').getByRole('button', { name: 'Connect' }).click();
    await page.getByText('This device has 1 TCP tunnel connected at this proxy, the most one device may have: disconnect one first.').waitFor({ timeout: 15_000 });
    await page.waitForTimeout(500); // the toast's slide-in
    await page.screenshot({ path: screenshotPath('tunnel-share-refused.png') });

    await page.goto(`${suite.stack.url}/devices/${deviceId}/delete`);
    await page.getByRole('checkbox', { name: 'I understand, delete this device' }).check();
    await page.getByRole('button', { name: 'Delete this device' }).click();
    await page.waitForURL(`${suite.stack.url}/devices/search`);
    const deleted = Date.now();
    while ((await listening(port)) && Date.now() - deleted < 2000) await new Promise((r) => setTimeout(r, 100));
    expect(await listening(port)).toBe(false);
    expect(pageErrors).toEqual([]);
  });
});
