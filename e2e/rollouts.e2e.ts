import { rmSync } from 'node:fs';
import path from 'node:path';
import { AgentProperty } from '@fleetlink/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, type AgentProcess } from '../apps/server/src/modules/broker/broker.test-support.js';
import { packAgentBundle } from '../apps/server/src/modules/releases/bundle-archives.test-support.js';
import { installBundle, runInstalled } from '../apps/server/src/modules/releases/installed-agent.test-support.js';
import { brokenBundle } from '../apps/server/src/modules/releases/release-client.test-support.js';
import { admin } from './support/accounts';
import { uploadBundle } from './support/bundles';
import { useConsoleSuite } from './support/console-suite';
import { createCompany } from './support/live-device';
import { screenshotPath } from './support/screenshots';

/**
 * Issue 65, Playwright: a release created in waves on the release form (its bad input refused with
 * the form's messages first), its first wave's counts changing live on the releases page as the one
 * installed agent takes the bad bundle and rolls back, "Halted" with its reason, and Resume with its
 * confirmation.
 */
const TEST_TIMEOUT_MS = 180_000;
const suite = useConsoleSuite({ ROLLOUT_TICK_MS: '500' });
let work: string;
let agent: AgentProcess | undefined;

const waveRow = (page: Page, n: number) => page.getByTestId('rollout-wave').nth(n - 1);

beforeAll(async () => {
  work = tempDir('fleetlink-rollouts-e2e-');
  const good = packAgentBundle('1.0.0', work);
  await uploadBundle(suite, good);
  await uploadBundle(suite, 'bad.tar.gz', brokenBundle('1.0.1', 'process.exit(3);\n'));
  const res = await suite.api(admin, 'POST', '/api/release', { branch: 'PRODUCTION', version: '1.0.0', bundles: [{ name: 'fleetlink-agent', version: '1.0.0' }] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}, TEST_TIMEOUT_MS);
afterAll(async () => {
  await agent?.kill();
  rmSync(work, { recursive: true, force: true });
});

describe('staged rollouts', () => {
  it('creates a release in waves, shows its first wave live, halts with the reason, and resumes after asking', { timeout: TEST_TIMEOUT_MS }, async () => {
    const organization = await createCompany(suite, admin, 'Rollout Co');
    const created = await suite.api(admin, 'POST', '/api/device', { organization, name: 'canary-e2e', branch: 'PRODUCTION' });
    expect(created.status).toBe(201);
    const { id, installationId } = created.body;
    const home = path.join(work, 'installed');
    await installBundle(home, path.join(work, 'fleetlink-agent-1.0.0.tar.gz'), '1.0.0');
    agent = runInstalled(home, { server: suite.stack.url, device: id, key: installationId, env: { FLEETLINK_UPDATE_DEADLINE_SECONDS: '30' } });
    await expect
      .poll(async () => (await suite.api(admin, 'GET', `/api/device/${id}`)).body.properties?.[AgentProperty.BundleVersion], { timeout: 60_000, interval: 500 })
      .toBe('1.0.0');

    const { page, pageErrors } = await suite.signedIn(admin, '/agent/releases/new');
    await page.getByRole('textbox', { name: 'Version' }).fill('1.0.1');
    const row = page.getByTestId('release-bundle-row').first();
    await row.getByRole('combobox', { name: 'Name' }).click();
    await page.getByRole('option', { name: 'fleetlink-agent' }).click();
    await row.getByRole('combobox', { name: 'Version' }).click();
    await page.getByRole('option', { name: '1.0.1' }).click();

    // All at once is the default; in waves, the default waves are 1 device, 10 %, 50 %, 100 %.
    expect(await page.getByRole('radio', { name: 'All at once' }).isChecked()).toBe(true);
    await page.getByText('In waves').click();
    await expect.poll(() => page.getByTestId('rollout-wave-row').count()).toBe(4);
    // Bad input: the last wave short of the whole fleet, a wait past 7 days, a threshold past 100 %.
    await page.getByRole('textbox', { name: 'Wave 4 share' }).fill('90');
    await page.getByRole('textbox', { name: 'Healthy for (minutes)' }).fill('20000');
    await page.getByRole('textbox', { name: 'Halt above (% of a wave)' }).fill('150');
    await page.getByRole('button', { name: 'Create release' }).click();
    await page.getByText('The last wave must be 100 %: every device of the release is in a wave.').waitFor();
    await page.getByText('The wait is at most 10080 minutes (7 days).').waitFor();
    await page.getByText('The failure threshold is between 0 and 100 %.').waitFor();
    await page.screenshot({ path: screenshotPath('rollout-form-errors.png'), fullPage: true });
    // Fixed: 1 device, then everyone, each wave healthy for 5 minutes, the default threshold.
    for (const n of [3, 2]) await page.getByTestId('rollout-wave-row').nth(n - 1).getByRole('button', { name: 'Remove wave' }).click();
    await page.getByRole('textbox', { name: 'Wave 2 share' }).fill('100');
    await page.getByRole('textbox', { name: 'Healthy for (minutes)' }).fill('5');
    await page.getByRole('textbox', { name: 'Halt above (% of a wave)' }).fill('5');
    await page.screenshot({ path: screenshotPath('rollout-form.png'), fullPage: true });
    await page.getByRole('button', { name: 'Create release' }).click();
    await page.waitForURL(/\/agent\/releases$/);

    // The first wave's counts change as the agent takes the bundle and rolls back: live, no reload.
    const panel = page.getByTestId('rollout-panel').first();
    await panel.getByTestId('rollout-waves').waitFor();
    expect(await waveRow(page, 2).innerText()).toContain('0');
    await waveRow(page, 1).getByText('1 failed').waitFor({ timeout: 90_000 });
    await panel.getByTestId('rollout-state').filter({ hasText: 'Halted' }).waitFor();
    expect(await panel.getByTestId('rollout-reason').innerText()).toBe('Halted: 1 of 1 devices in wave 1 rolled back: canary-e2e: ended with code 3 before it came online');
    await page.screenshot({ path: screenshotPath('rollout-halted.png'), fullPage: true });

    // Which devices are in the wave.
    await waveRow(page, 1).getByRole('button', { name: 'Devices of wave 1' }).click();
    const listed = page.getByRole('listitem').filter({ hasText: 'canary-e2e' });
    await listed.waitFor();
    expect((await listed.innerText()).replace(/\s+/g, ' ')).toBe('canary-e2e failed: rolled back: ended with code 3 before it came online');
    await page.keyboard.press('Escape');

    // Resume, after its question.
    await page.getByRole('button', { name: 'Resume' }).click();
    expect(await page.getByTestId('rollout-question').innerText()).toBe('Resume the rollout of PRODUCTION 1.0.1? The failures so far are accepted; the waves go on from the current one.');
    await page.getByRole('button', { name: 'Yes' }).click();
    await panel.getByTestId('rollout-state').filter({ hasText: 'Running' }).waitFor();
    expect(await panel.getByTestId('rollout-reason').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
