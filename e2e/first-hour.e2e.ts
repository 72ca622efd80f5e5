import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { admin } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';
import { createCompany } from './support/live-device';
import { screenshotPath } from './support/screenshots';

const agentVersion: string = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../apps/agent/package.json'), 'utf8')).version;

/** Issue 59: what a new operator meets in the first hour, on a console as `npm start` makes it. */
describe('the first hour', () => {
  // The built-in release, as on every console's first start (other specs turn it off).
  const suite = useConsoleSuite({ AGENT_BUILT_IN_RELEASE: 'true' });

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
});
