import { describe, expect, it } from 'vitest';
import { openDatabase } from '../apps/server/src/db/client.js';
import { seedFleet } from '../apps/server/src/modules/devices/device-fleet.test-support.js';
import { user } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';

const TEST_TIMEOUT_MS = 180_000;
const FLEET = 12_000;

const suite = useConsoleSuite();

/**
 * Issue 69: above 10,000 matches a count may be an estimate; the page says so. The fleet is
 * written straight into the console's database while it is stopped (an operator's restart): no
 * API registers 12,000 devices at once.
 */
describe('device counts of a large fleet', () => {
  it('reads "about" on an estimated tab, says the counts are estimated, and keeps exact counts as they are', { timeout: TEST_TIMEOUT_MS }, async () => {
    const organizations = await suite.api(user, 'GET', '/api/device-organizations');
    const personal = (organizations.body as { id: string; type: string }[]).find((o) => o.type === 'PERSONAL')!;
    await suite.stack.restart(async () => {
      const database = await openDatabase({ dataDir: suite.stack.dataDir });
      try {
        await seedFleet(database.db, personal.id, FLEET);
      } finally {
        await database.close();
      }
    });

    const { page, pageErrors } = await suite.signedIn(user, '/devices/search');
    const tab = (name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) });
    await tab('All').filter({ hasText: 'about' }).waitFor();
    expect(await tab('All').textContent()).toMatch(/^All\s*about 1[12],000$/);
    // 3,000 online and 9,000 offline: below 10,000, counted exactly.
    expect(await tab('Online').textContent()).toMatch(/^Online\s*3000$/);
    expect(await tab('Offline').textContent()).toMatch(/^Offline\s*9000$/);
    await page.getByText('This search matches many devices: counts above 10,000 are estimated, and rounded.').waitFor();
    // The first page is exact, in name order.
    await page.getByText('device-1', { exact: true }).first().waitFor();

    // A search that matches fewer is counted exactly, and the note goes.
    await page.goto(`${suite.stack.url}/devices/search?search=device-4242`);
    await page.getByText('device-4242', { exact: true }).first().waitFor();
    expect(await tab('All').textContent()).toMatch(/^All\s*1$/);
    expect(await page.getByText('counts above 10,000 are estimated', { exact: false }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
