import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeKeycloak, type FakeKeycloak } from '../apps/server/src/testing/fake-keycloak.js';
import { launchBrowser, openPage, type OpenedPage } from './support/browser';
import { startStack, type Stack } from './support/stack';

/**
 * SPEC §6 'Roles come from the token (realm and per-client roles)', in the browser: the console
 * signs in at an external, Keycloak-shaped provider (a stand-in: Keycloak is outside the product and
 * not on this machine) whose tokens hold USER only as a client role of the console's client.
 */
const TEST_TIMEOUT_MS = 90_000;
const CLIENT = 'fleetlink-console';

let kc: FakeKeycloak;
let stack: Stack;
let browser: Browser;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  kc = await startFakeKeycloak(CLIENT);
  // Identity mapping (issue 62) too: the tests above hold no groups, so it gives them nothing.
  [stack, browser] = await Promise.all([startStack({ OIDC_ISSUER: kc.issuer, OIDC_ROLE_MAP: '/fleet-admins=ADMIN,/fleet-users=USER' }), launchBrowser()]);
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map(({ context }) => context.close()));
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await kc?.close();
});

/** A fresh browser opening `path`: the guard sends it to the provider, which signs it in at once. */
async function signedIn(path: string) {
  const o = await openPage(browser);
  opened.push(o);
  await o.page.goto(`${stack.url}${path}`);
  await o.page.waitForURL(`${stack.url}${path}`);
  await o.page.getByTestId('profile-menu').waitFor();
  return o;
}

const navButton = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });

const withRoles = (realm: string[], client: Record<string, string[]>) => {
  kc.accessClaims = {
    realm_access: { roles: realm },
    resource_access: Object.fromEntries(Object.entries(client).map(([id, roles]) => [id, { roles }])),
  };
};

describe('client roles', () => {
  it('lets a token with USER only as a client role of the console reach the device pages', { timeout: TEST_TIMEOUT_MS }, async () => {
    withRoles(['offline_access', 'default-roles-fleetlink'], { [CLIENT]: ['USER'], account: ['manage-account'] });
    const { page, pageErrors } = await signedIn('/devices/search');
    // The SPA's guard let it in, and the API answered the search (an empty fleet, not an error).
    await page.getByText('No devices here yet.').waitFor();
    expect(await page.getByTestId('access-denied').count()).toBe(0);
    await navButton(page, 'Devices').hover();
    await page.getByRole('menuitem', { name: 'Create new device' }).waitFor();
    // USER only: no Manage menu, and an ADMIN page is refused.
    expect(await navButton(page, 'Manage').count()).toBe(0);
    await page.goto(`${stack.url}/servers`);
    await page.getByTestId('access-denied').waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('gives an ADMIN client role the Manage menu and its pages', { timeout: TEST_TIMEOUT_MS }, async () => {
    withRoles([], { [CLIENT]: ['USER', 'ADMIN'] });
    const { page } = await signedIn('/servers');
    await navButton(page, 'Manage').waitFor();
    expect(await page.getByTestId('access-denied').count()).toBe(0);
  });

  it("grants nothing for the same roles held by another client of the realm", { timeout: TEST_TIMEOUT_MS }, async () => {
    withRoles([], { grafana: ['USER', 'ADMIN'] });
    const { page } = await signedIn('/devices/search');
    await page.getByTestId('access-denied').waitFor();
    expect(await navButton(page, 'Devices').count()).toBe(0);
  });

  it('grants the roles the groups map to (OIDC_ROLE_MAP), in the menus as on the API', { timeout: TEST_TIMEOUT_MS }, async () => {
    kc.accessClaims = { realm_access: { roles: ['offline_access'] }, resource_access: {}, groups: ['/fleet-users', '/fleet-admins'] };
    const admin = await signedIn('/servers');
    await navButton(admin.page, 'Manage').waitFor();
    await admin.page.getByRole('heading', { name: 'Servers' }).first().waitFor();
    expect(await admin.page.getByTestId('access-denied').count()).toBe(0);

    kc.accessClaims = { realm_access: { roles: [] }, resource_access: {}, groups: ['/fleet-users', '/marketing'] };
    const { page, pageErrors } = await signedIn('/devices/search');
    await page.getByText('No devices here yet.').waitFor();
    expect(await navButton(page, 'Manage').count()).toBe(0);
    await page.goto(`${stack.url}/servers`);
    await page.getByTestId('access-denied').waitFor();
    expect(pageErrors.concat(admin.pageErrors)).toEqual([]);
  });
});
