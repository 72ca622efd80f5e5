import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver } from '../apps/server/src/modules/alerts/webhook-receiver.test-support.js';
import { admin } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';
import { startLiveDevice, type LiveDevice } from './support/live-device';
import { screenshotPath } from './support/screenshots';

/**
 * Issue 66, Playwright: an organization's manager makes an alert rule with a webhook on its Alerts
 * tab, presses Test and reads the delivery log; when the device's agent is killed, the bell in the
 * top navigation shows an unread alert without a reload.
 */

const TEST_TIMEOUT_MS = 120_000;
const STAMP = Date.now().toString(36);

// Rules evaluated every half second; the receiver runs on loopback, a private target the operator allows here.
const suite = useConsoleSuite({ ALERT_TICK_MS: '500', ALERT_WEBHOOK_PRIVATE_TARGETS: 'true' });
let live: LiveDevice | undefined;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>> | undefined;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  live = await startLiveDevice(suite, { organization: `Alerts ${STAMP}`, device: `Alert box ${STAMP}` });
}, TEST_TIMEOUT_MS);

afterAll(async () => {
  await live?.stop();
  await receiver?.close();
});

describe('alerts', () => {
  it('makes a rule with a webhook, tests it, shows the log, and rings the bell when the agent is killed', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, pageErrors } = await suite.signedIn(admin, `/organizations/${live!.organizationId}`);
    await page.getByRole('link', { name: 'Alerts' }).click();
    await page.getByRole('button', { name: 'New rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New alert rule' });
    await dialog.getByLabel('Name').fill('Box offline');
    await dialog.getByLabel('Offline for more than (minutes)').fill('0.05');
    await dialog.getByLabel('Webhook URL').fill('http://169.254.169.254/latest/meta-data/');
    await dialog.getByRole('button', { name: 'Save' }).click();
    // Refused, and said beside the field.
    await dialog.getByText('169.254.169.254 is a link-local, metadata or reserved address: a webhook cannot be sent there.').first().waitFor();
    await dialog.getByLabel('Webhook URL').fill(receiver!.url);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const secret = page.getByTestId('new-webhook-secret');
    expect(await secret.innerText()).toMatch(/whsec_[A-Za-z0-9_-]{43}/);
    const rule = page.getByTestId('alert-rule').filter({ hasText: 'Box offline' });
    expect(await rule.innerText()).toContain('A device is offline for more than 0.05 minutes, and back online');

    await rule.getByRole('button', { name: 'Test the webhook of Box offline' }).click();
    const log = page.getByRole('dialog', { name: 'Deliveries of Box offline' });
    const delivery = log.getByTestId('alert-delivery').first();
    await expect.poll(() => delivery.getByTestId('alert-delivery-answer').innerText(), { timeout: 10_000 }).toBe('200');
    expect(await delivery.innerText()).toContain("A test of the alert rule 'Box offline'");
    expect(receiver!.got.map((g) => g.body.type)).toEqual(['test']);
    await page.screenshot({ path: screenshotPath('alert-deliveries.png'), fullPage: true });
    await page.keyboard.press('Escape');

    const bell = page.getByTestId('alert-bell');
    expect(await bell.getAttribute('aria-label')).toBe('Alerts');
    await live!.agent.kill();
    await expect.poll(() => bell.getAttribute('aria-label'), { timeout: 20_000 }).toBe('Alerts: 1 unread');
    await bell.click();
    const notice = page.getByTestId('alert-notice').first();
    expect(await notice.innerText()).toContain(`Device 'Alert box ${STAMP}' has been offline for more than 0.05 minutes.`);
    await page.screenshot({ path: screenshotPath('alert-bell.png'), fullPage: true });
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Alerts');
    expect(receiver!.got.map((g) => g.body.type)).toContain('device.offline');
    live!.restart();
    expect(pageErrors).toEqual([]);
  });

  it("lets a realm ADMIN make the realm's rule on Manage → Alerts", { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, pageErrors } = await suite.signedIn(admin, '/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Manage', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Alerts' }).click();
    await page.waitForURL(`${suite.stack.url}/operator/alerts`);
    await page.getByRole('button', { name: 'New rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New alert rule' });
    await dialog.getByLabel('Name').fill(`Halts ${STAMP}`);
    // The realm's one condition, chosen already; no device filter here.
    expect(await dialog.getByLabel('When').inputValue()).toBe('A rollout halted');
    expect(await dialog.getByLabel('Devices matching').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const rule = page.getByTestId('alert-rule').filter({ hasText: `Halts ${STAMP}` });
    expect(await rule.innerText()).toContain('A rollout halted');
    expect(await rule.innerText()).toContain('the console');
    expect(pageErrors).toEqual([]);
  });
});
