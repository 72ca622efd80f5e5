import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeEndOfLife } from '@fleetlink/contract';
import { olderSystemNode } from '../apps/server/src/modules/broker/broker.test-support.js';
import { freePort } from '../apps/server/src/testing/test-console.js';
import { admin, user, type SeededAccount } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';
import { startLiveDevice } from './support/live-device';
import { screenshotPath } from './support/screenshots';

/**
 * Issue 4, Playwright: an admin registers a second message server; the user creates a device, copies
 * the agent command from its Install page, runs it as a real agent process, and sees the device
 * online with its Summary cards filled, latency in the Network card and the load graph.
 */

const TEST_TIMEOUT_MS = 240_000;
/** Every wait for the agent or the console is bounded by this. */
const WAIT_MS = 60_000;
const STAMP = Date.now().toString(36);
const DEVICE_NAME = `Agent box ${STAMP}`;
const root = path.resolve(import.meta.dirname, '..');

let agent: ChildProcess | undefined;
let agentOutput = '';
let agentDataDir: string | undefined;

// Samples every 2 s instead of 60 s, so the load graph has points within the test.
const suite = useConsoleSuite({ AGENT_METRICS_SECONDS: '2' });
const { signedIn } = suite;

// Registered after the suite's hooks, so it runs before the console stops.
afterAll(async () => {
  await stopAgent();
  if (agentDataDir) rmSync(agentDataDir, { recursive: true, force: true });
});

const api = async (account: SeededAccount, pathname: string) => suite.api(account, 'GET', pathname);

/**
 * Runs the copied command. `npx` resolves the workspace bin from the repository root, as the
 * Install page says; the agent runs in its own process group so that npx and node stop together.
 */
function startAgent(command: string, dataDir: string): ChildProcess {
  expect(command).toMatch(/^FLEETLINK_AGENT_KEY=\S+ npx /);
  // As a person's shell runs it: the key in npx's environment, not on its command line.
  const child = spawn('sh', ['-c', `${command.trim()} --data-dir ${dataDir}`], {
    cwd: root,
    env: { ...process.env, npm_config_yes: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout!.on('data', (c: Buffer) => (agentOutput += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (agentOutput += c.toString()));
  return child;
}

async function stopAgent(): Promise<void> {
  const child = agent;
  agent = undefined;
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, s); // the agent's own process group: npx and the agent under it
    } catch {
      /* already gone */
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Polls `check` until it holds, at most `ms`; the last failure explains a timeout. */
async function eventually<T>(what: string, check: () => Promise<T | undefined>, ms = WAIT_MS, every = 1_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s (${String(last ?? 'no match')})\nagent output:\n${agentOutput}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

const card = (page: Page, title: string) => page.getByTestId(`summary-${title.toLowerCase()}`);

describe('agent: a real agent started from the Install page brings a device online', () => {
  it('registers a second message server, runs the copied command and shows the live device', { timeout: TEST_TIMEOUT_MS }, async () => {
    // 1. Admin registers a second MESSAGE server through the form. Nothing listens there; the hub
    //    keeps retrying it, and the first (embedded) server stays the least loaded one by age.
    const secondUrl = `mqtt://127.0.0.1:${await freePort()}`;
    {
      const { page, pageErrors } = await signedIn(admin, '/servers');
      await page.getByRole('link', { name: 'Register new server' }).click();
      await page.getByRole('heading', { name: 'Register new server' }).waitFor();
      expect(await page.getByLabel('Message').isChecked()).toBe(true);
      await page.getByRole('textbox', { name: 'URL', exact: true }).fill(secondUrl);
      await page.getByRole('textbox', { name: 'Username' }).fill('console');
      await page.getByLabel(/^Password/).fill('console-secret');
      await page.locator('input[type="file"]').setInputFiles({
        name: 'ca.pem',
        mimeType: 'application/x-pem-file',
        buffer: Buffer.from('-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n'),
      });
      await page.getByLabel(/^Trust store password/).fill('changeit');
      await page.getByRole('textbox', { name: 'Blob base URL' }).fill('http://127.0.0.1:9/blobs');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(`${suite.stack.url}/servers`);
      await page.getByTestId('server-card').filter({ hasText: secondUrl }).waitFor();
      expect(await page.getByTestId('server-card').filter({ hasText: 'MESSAGE' }).count()).toBe(2);
      expect(pageErrors).toEqual([]);
    }

    // 2. The user creates a device and lands on its Install page (no agent yet).
    const { page, context, pageErrors } = await signedIn(user, '/devices/new');
    await page.getByLabel('Name', { exact: false }).first().fill(DEVICE_NAME);
    await page.getByRole('button', { name: 'Create device' }).click();
    await page.waitForURL(/\/devices\/[0-9a-f-]{36}\/install$/);
    const id = new URL(page.url()).pathname.split('/')[2]!;

    // 3. Copy the command with its copy button (1 s feedback) and read it back from the clipboard.
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.stack.url });
    const commandCard = page.getByTestId('install-command-card');
    expect(await page.getByTestId('install-command').innerText()).toMatch(/^FLEETLINK_AGENT_KEY=•+ npx /); // masked until shown
    await commandCard.getByRole('button', { name: 'Copy command' }).click();
    await commandCard.getByRole('button', { name: 'Copied' }).waitFor();
    await commandCard.getByRole('button', { name: 'Copy command' }).waitFor({ timeout: 3_000 });
    const command = (await page.evaluate(() => navigator.clipboard.readText())).trim();
    await commandCard.getByRole('button', { name: 'Show command' }).click();
    expect((await page.getByTestId('install-command').innerText()).trim()).toBe(command);
    const { body: created } = await api(user, `/api/device/${id}`);
    expect(command).toBe(`FLEETLINK_AGENT_KEY=${created.installationId} npx fleetlink-agent run --server ${suite.stack.url} --device ${id}`);

    // 4. Run it: the real agent, as a child process, with its data in a temp dir.
    agentDataDir = mkdtempSync(path.join(tmpdir(), 'fleetlink-agent-e2e-'));
    agent = startAgent(command, agentDataDir);
    agent.once('exit', (code, signal) => (agentOutput += `\n[agent exited: ${code ?? signal}]`));

    // 5. The device turns online: open it again (the device cache refreshes only every 60 s) until
    //    it does; until the agent has reported, the summary redirects to Install.
    const online = page.getByRole('img', { name: 'Online' }).first();
    await eventually('device shown online', async () => {
      if (agent?.exitCode !== null && agent?.exitCode !== undefined) throw new Error('agent exited');
      await page.goto(`${suite.stack.url}/devices/${id}`);
      await page.getByTestId('device-id').waitFor();
      return (await online.count()) > 0 && new URL(page.url()).pathname === `/devices/${id}`;
    }, WAIT_MS, 2_000);
    await online.hover();
    await page.getByRole('tooltip', { name: 'Online' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/devices/${id}`);

    // 6. Summary cards filled with the agent's real values.
    const { body: device } = await api(user, `/api/device/${id}`);
    expect(device.properties.hostname).toBe(hostname());
    await card(page, 'System').getByText(hostname(), { exact: true }).waitFor();
    await card(page, 'System').getByText(device.properties['os.name'], { exact: false }).waitFor();
    await card(page, 'Agent').getByText(`mqtt://127.0.0.1:${suite.stack.mqttPort}`).waitFor();
    await card(page, 'Agent').getByText('Node.js', { exact: false }).waitFor();
    await card(page, 'Memory').getByText('Physical').waitFor();
    await card(page, 'Processor').getByText('Agent threads').waitFor();
    await card(page, 'Processor').getByText('Utilization').waitFor();

    // Network: latency in ms (measured by the console's ping) and the weekly time grid, today online.
    await eventually('latency shown', async () => {
      if ((await card(page, 'Network').getByText(/^\d+ ms$/).count()) > 0) return true;
      await page.reload();
      await card(page, 'Network').waitFor();
      return false;
    }, WAIT_MS, 2_000);
    const rows = card(page, 'Network').getByTestId('timeline-row');
    expect(await rows.count()).toBe(8);
    await rows.nth(7).getByTestId('timeline-bar').first().waitFor();

    // Processor: the load graph (refetched every 10 s while an online device has no samples yet).
    const graph = card(page, 'Processor').getByTestId('load-graph');
    await graph.waitFor({ timeout: WAIT_MS });
    const yLabels = await graph.getByTestId('load-graph-y-tick').allTextContents();
    expect(yLabels.map((l) => l.trim())).toEqual(['0 %', '25 %', '50 %', '75 %', '100 %']);
    const xLabels = (await graph.getByTestId('load-graph-x-tick').allTextContents()).map((l) => l.trim());
    expect(xLabels.length).toBeGreaterThan(0);
    for (const l of xLabels) expect(l).toMatch(/^\d\d:\d\d$/);
    expect(await graph.locator('polyline, circle').count()).toBeGreaterThan(0);

    await page.mouse.move(0, 0);
    await page.screenshot({ path: screenshotPath('agent-summary.png'), fullPage: true });
    expect(pageErrors).toEqual([]);

    // 7. The key has enrolled the agent: the Install page says so. Resetting it (after a
    //    confirmation) shows a new key and drops the running agent, whose renewals are refused.
    await page.goto(`${suite.stack.url}/devices/${id}/install`);
    await page.getByTestId('install-key-state').getByText('The agent enrolled with this key on', { exact: false }).waitFor();
    await page.getByTestId('install-command-key-used').waitFor();
    await page.getByRole('button', { name: 'Reset installation key' }).click();
    await page.getByText(`Reset the installation key of ${DEVICE_NAME}? The agent running now is disconnected, and only the new key can enroll the device again.`).waitFor();
    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    await page.getByTestId('install-key-state').getByText('Not used yet', { exact: false }).waitFor();
    expect(await page.getByTestId('install-command-key-used').count()).toBe(0);
    const { body: reset } = await api(user, `/api/device/${id}`);
    expect(reset.installationId).not.toBe(created.installationId);
    await eventually('old agent refused', async () => agentOutput.includes("The device's credentials are no longer valid") || undefined);
    await eventually('device offline', async () => ((await api(user, `/api/device/${id}`)).body.online === false) || undefined);
    expect(pageErrors).toEqual([]);

    // 8. Kill the agent.
    await stopAgent();
  });

  // Devices keep their Node longer than servers. CI provides Node 24 for the console and names the
  // machine's Node 20 (scripts/node24.sh): an agent on each, side by side.
  const older = olderSystemNode();
  it.skipIf(!older)("shows each agent's Node.js, and says when one is past its end of life", { timeout: TEST_TIMEOUT_MS }, async () => {
    const stamp = `${STAMP}-runtime`;
    const oldNode = await startLiveDevice(suite, { organization: `Runtimes ${stamp}`, device: `Old Node ${stamp}` }, { node: older!.path });
    const newNode = await startLiveDevice(suite, { organization: `Runtimes new ${stamp}`, device: `New Node ${stamp}` });
    try {
      const endOfLife = nodeEndOfLife(older!.version);
      expect(endOfLife, `Node.js ${older!.version} is past its end of life`).toBeDefined();
      const { page, pageErrors } = await signedIn(user, `/devices/${oldNode.deviceId}`);
      await card(page, 'Agent').getByText(`Node.js ${older!.version}`, { exact: true }).waitFor();
      const warning = card(page, 'Agent').getByTestId('runtime-end-of-life');
      const day = new Date(`${endOfLife}T12:00:00`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });
      expect(await warning.innerText()).toBe(`End of life since ${day}: no more security fixes`);

      await page.goto(`${suite.stack.url}/devices/${newNode.deviceId}`);
      await card(page, 'Agent').getByText(`Node.js ${process.versions.node}`, { exact: true }).waitFor();
      expect(await card(page, 'Agent').getByTestId('runtime-end-of-life').count()).toBe(0);
      expect(pageErrors).toEqual([]);
    } finally {
      await oldNode.stop();
      await newNode.stop();
    }
  });
});
