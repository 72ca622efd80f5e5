import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { formatBytes } from '@fleetlink/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_NODE, agentPidUnder, tempDir } from '../apps/server/src/modules/broker/broker.test-support.js';
import { packAgentBundle } from '../apps/server/src/modules/releases/bundle-archives.test-support.js';
import { admin } from './support/accounts';
import { uploadBundle } from './support/bundles';
import { useConsoleSuite } from './support/console-suite';
import { createCompany } from './support/live-device';
import { screenshotPath } from './support/screenshots';

const execFileAsync = promisify(execFile);

/**
 * Issue 32, Playwright: the Install page lists the release's Linux installer and portable archive
 * with their real sizes; the installer downloaded in the browser, run with the command the page
 * shows (into a temporary prefix), installs an agent that comes online; its Summary shows bundle,
 * launcher and update bundle; after a new release and the `update` command it runs the new
 * bundle, and the releases page counts it there.
 */
const TEST_TIMEOUT_MS = 180_000;
const suite = useConsoleSuite();
let work: string;
let launcherPid: number | undefined;

const card = (page: Page, title: string) => page.getByTestId(`summary-${title.toLowerCase()}`);

/**
 * Runs a wait on the installed agent; when it fails, the failure carries what the page showed (its
 * URL and text, and a screenshot) and the agent's own log (the installer's agent.log).
 */
async function withAgentLog(page: Page, prefix: string, wait: () => Promise<unknown>): Promise<void> {
  try {
    await wait();
  } catch (err) {
    const log = path.join(prefix, 'agent.log');
    await page.screenshot({ path: screenshotPath('agent-install-failed.png'), fullPage: true }).catch(() => {});
    const text = await page.locator('body').innerText({ timeout: 2000 }).catch((e: Error) => `(unreadable: ${e.message})`);
    (err as Error).message +=
      `\n--- page ${page.url()} ---\n${text.slice(0, 2000)}` + `\n--- ${log} ---\n${existsSync(log) ? readFileSync(log, 'utf8').slice(-8000) : '(none)'}`;
    throw err;
  }
}

async function release(version: string) {
  const res = await suite.api(admin, 'POST', '/api/release', { branch: 'PRODUCTION', version, bundles: [{ name: 'fleetlink-agent', version }] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

beforeAll(async () => {
  work = tempDir('fleetlink-install-e2e-');
  for (const v of ['3.0.0', '3.1.0']) await uploadBundle(suite, packAgentBundle(v, work));
  await release('3.0.0');
}, TEST_TIMEOUT_MS);
afterAll(() => {
  if (launcherPid) {
    try {
      process.kill(launcherPid, 'SIGTERM');
    } catch {
      // gone already
    }
  }
  rmSync(work, { recursive: true, force: true });
});

describe('agent downloads and self-update', () => {
  it('downloads the installer, installs an agent that comes online, and updates it to a new release', { timeout: TEST_TIMEOUT_MS }, async () => {
    const organization = await createCompany(suite, admin, 'Install Co');
    const created = await suite.api(admin, 'POST', '/api/device', { organization, name: 'installed-e2e', branch: 'PRODUCTION' });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    const listed = (await suite.api(admin, 'GET', `/api/device/${id}/agent-downloads`)).body;

    const { page, pageErrors } = await suite.signedIn(admin, `/devices/${id}/install`);
    await page.getByTestId('download-installer').waitFor();
    expect(await page.getByTestId('install-downloads-version').innerText()).toContain('Agent version 3.0.0 (release PRODUCTION 3.0.0)');
    for (const d of listed.downloads) expect(await page.getByTestId(`download-${d.kind}-size`).innerText()).toBe(formatBytes(d.size));
    await page.screenshot({ path: screenshotPath('install-downloads.png'), fullPage: true });

    // The browser's download is the file the console listed, to the byte.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-installer').getByRole('button', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe('fleetlink-agent-3.0.0-linux-installer.sh');
    const installer = path.join(work, download.suggestedFilename());
    await download.saveAs(installer);
    expect(statSync(installer).size).toBe(listed.downloads.find((d: { kind: string }) => d.kind === 'installer').size);

    // The command the page shows, run as it says (here into a temporary prefix, without systemd).
    // Each download has its command, the key masked until shown and never on a program's command line.
    const { body: device } = await suite.api(admin, 'GET', `/api/device/${id}`);
    const masked = '•'.repeat(32);
    expect(await page.getByTestId('install-portable-command').innerText()).toBe(
      `tar -xzf fleetlink-agent-3.0.0-linux-portable.tar.gz && FLEETLINK_AGENT_KEY=${masked} ./fleetlink-agent-3.0.0/fleetlink-agent run --server ${suite.stack.url} --device ${id}`,
    );
    const commandBox = page.getByTestId('install-installer-command');
    expect(await commandBox.innerText()).toBe(`printf %s ${masked} | sudo sh fleetlink-agent-3.0.0-linux-installer.sh --server ${suite.stack.url} --device ${id} --key-file -`);
    await page.getByTestId('download-installer-how').getByRole('button', { name: 'Show command' }).click();
    const command = (await commandBox.innerText()).trim();
    expect(command).toContain(`printf %s ${device.installationId} | `);
    const prefix = path.join(work, 'opt');
    const asRun = command.replace('sudo sh fleetlink-agent-3.0.0-linux-installer.sh', `sh ${installer}`) + ` --prefix ${prefix} --unit-dir ${path.join(work, 'units')}`;
    const run = await execFileAsync('sh', ['-c', asRun], {
      encoding: 'utf8',
      env: { ...process.env, PATH: `${path.dirname(AGENT_NODE)}:${process.env.PATH}`, FLEETLINK_UPDATE_DEADLINE_SECONDS: '60' },
    });
    expect(run.stdout).toContain('Installed the Fleetlink agent 3.0.0');
    launcherPid = Number(readFileSync(path.join(prefix, 'agent.pid'), 'utf8'));

    // Online, and the Summary's Agent card says what runs. The Summary is asked for each time, not
    // reloaded: a device no agent has reported from yet sends the browser on to its Install page.
    const summary = `${suite.stack.url}/devices/${id}`;
    /** Waits until the Agent card shows `version` as both the running and the update bundle. */
    const agentCardShows = (version: string) =>
      withAgentLog(page, prefix, () =>
        expect.poll(async () => {
          await page.goto(summary);
          await card(page, 'Agent').waitFor();
          return card(page, 'Agent').getByText(version, { exact: true }).count();
        }, { timeout: 60_000, interval: 2000 }).toBe(2),
      );
    await agentCardShows('3.0.0');
    await card(page, 'Agent').getByText('1.0.0', { exact: true }).waitFor();

    // A new release, and the `update` command: the agent switches to it by itself.
    await release('3.1.0');
    const updated = await suite.api(admin, 'POST', `/api/device/${id}/command`, { name: 'update', parameters: [] });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.stdout).toMatch(/^Updating from 3.0.0 to 3.1.0/);
    await agentCardShows('3.1.0');
    await page.screenshot({ path: screenshotPath('summary-agent-updated.png'), fullPage: true });

    // Killed as a crash or the out-of-memory killer would: its launcher starts it again, and the
    // Agent card says how often and why (issue 67).
    expect(await card(page, 'Agent').getByText('None', { exact: true }).count()).toBe(1);
    process.kill(agentPidUnder(launcherPid)!, 'SIGKILL');
    await withAgentLog(page, prefix, () =>
      expect.poll(async () => {
        await page.goto(summary);
        await card(page, 'Agent').waitFor();
        return card(page, 'Agent').getByText(/^1 \(last: killed by signal KILL at \d\d:\d\d\)$/).count();
      }, { timeout: 60_000, interval: 2000 }).toBe(1),
    );
    await page.screenshot({ path: screenshotPath('summary-agent-restarted.png'), fullPage: true });

    await page.goto(`${suite.stack.url}/agent/releases`);
    const row = page.getByTestId('release-table').locator('tbody tr', { hasText: '3.1.0' });
    await row.getByText('1 running').waitFor();
    await page.screenshot({ path: screenshotPath('releases-standing.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
