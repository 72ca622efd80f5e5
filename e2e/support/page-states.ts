import type { Page } from 'playwright-core';
import type { PageObjects } from './page-objects';

/** One state of a page the accessibility spec checks: opened at `path`, then `act` done on it. */
export interface PageState {
  name: string;
  path: string;
  /** What brings the page into the state (a menu opened, a form sent empty); nothing for the page as it loads. */
  act?: (page: Page) => Promise<void>;
}

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
/** Sends the page's form as it is (empty): its fields' messages show. */
const submit = (page: Page) => page.locator('main form button[type="submit"]').first().click();

/** Every page an ADMIN reaches, and the states within them people meet: menus, dialogs, refused forms, answers. */
export function pageStates(ids: { deviceId: string; organizationId: string } & PageObjects): PageState[] {
  const device = `/devices/${ids.deviceId}`;
  const org = `/organizations/${ids.organizationId}`;
  const pages = [
    '/',
    '/devices',
    '/devices/search',
    '/devices/new',
    device,
    `${device}/tunnels`,
    `${device}/tunnels/new`,
    `${device}/tunnels/${ids.tunnelId}`,
    `${device}/file`,
    `${device}/monitor`,
    `${device}/monitor/new`,
    `${device}/monitor/${ids.monitorId}`,
    `${device}/install`,
    `${device}/edit`,
    `${device}/delete`,
    `${device}/servers`,
    `${device}/command`,
    `${device}/terminal`,
    '/organizations',
    '/organizations/new',
    org,
    `${org}/members`,
    `${org}/domain`,
    `${org}/edit`,
    `${org}/activity`,
    `${org}/alerts`,
    `${org}/invoices`,
    '/servers',
    '/servers/new',
    `/servers/${ids.serverId}`,
    '/agent/bundles',
    '/agent/releases',
    '/agent/releases/new',
    '/jobs',
    '/jobs/new',
    `/jobs/${ids.jobId}`,
    '/operator',
    '/operator/audit',
    '/operator/alerts',
    '/operator/people',
    '/profile/api-tokens',
    '/profile/account',
    '/terms-service',
    '/privacy-policy',
    '/access-denied',
    '/contact',
    '/no-such-page',
  ];
  const states: PageState[] = [
    {
      name: 'Devices menu open',
      path: '/',
      act: async (page) => {
        await mainNav(page).getByRole('button', { name: 'Devices', exact: true }).click();
        await page.getByRole('menuitem', { name: 'Find devices' }).waitFor();
      },
    },
    {
      name: 'Manage menu open',
      path: '/',
      act: async (page) => {
        await mainNav(page).getByRole('button', { name: 'Manage', exact: true }).click();
        await page.getByRole('menuitem').first().waitFor();
      },
    },
    {
      name: 'profile menu open',
      path: '/',
      act: async (page) => {
        await page.getByTestId('profile-menu').click();
        await page.getByRole('menuitem', { name: 'Logout' }).waitFor();
      },
    },
    {
      name: 'alerts open',
      path: '/',
      act: async (page) => {
        await page.getByTestId('alert-bell').click();
        await page.getByRole('button', { name: 'Mark all as read' }).waitFor();
      },
    },
    {
      name: 'quick results open',
      path: '/devices/search',
      act: async (page) => {
        await page.getByRole('combobox', { name: 'Search devices' }).fill('axe');
        await page.getByRole('option').first().waitFor();
        await page.keyboard.press('ArrowDown');
      },
    },
    {
      name: 'new device refused',
      path: '/devices/new',
      act: async (page) => {
        await page.getByRole('textbox', { name: 'Name' }).fill('');
        await submit(page);
        await page.locator('[aria-invalid="true"]').first().waitFor();
      },
    },
    {
      name: 'new folder dialog',
      path: `${device}/file`,
      act: async (page) => {
        await page.getByRole('button', { name: 'New folder' }).click();
        await page.getByRole('dialog').getByRole('textbox', { name: 'Name' }).fill('../escape');
        await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
        await page.getByRole('dialog').getByText('Name cannot contain / or \\.').waitFor();
      },
    },
    {
      name: 'command answered',
      path: `${device}/command`,
      act: async (page) => {
        await page.getByRole('textbox', { name: 'Parameter 1 value' }).fill('echo hello; echo oops >&2; exit 3');
        await page.getByRole('button', { name: 'Run' }).click();
        await page.getByTestId('command-answer').waitFor({ timeout: 15_000 });
      },
    },
    {
      name: 'command refused',
      path: `${device}/command`,
      act: async (page) => {
        await page.getByRole('button', { name: 'Run' }).click();
        await page.getByText('Value is required.').waitFor();
      },
    },
    {
      name: 'new tunnel refused',
      path: `${device}/tunnels/new`,
      act: async (page) => {
        await submit(page);
        await page.locator('[aria-invalid="true"]').first().waitFor();
      },
    },
    {
      name: 'new alert rule dialog',
      path: '/operator/alerts',
      act: async (page) => {
        await page.getByRole('button', { name: 'New rule' }).click();
        await page.getByRole('dialog', { name: 'New alert rule' }).waitFor();
      },
    },
    {
      name: 'job output dialog',
      path: `/jobs/${ids.jobId}`,
      act: async (page) => {
        await page.getByRole('button', { name: 'Show output of axe-device' }).click();
        await page.getByRole('dialog', { name: 'Output of axe-device' }).getByTestId('job-output').waitFor();
      },
    },
    {
      name: 'rollout dialog',
      path: '/agent/releases',
      act: async (page) => {
        await page.getByRole('button', { name: `Rollout of ${ids.releaseName}` }).click();
        await page.getByRole('dialog', { name: `Rollout of ${ids.releaseName}` }).getByTestId('rollout-wave-row').first().waitFor();
      },
    },
    {
      name: 'webhook deliveries dialog',
      path: `${org}/alerts`,
      act: async (page) => {
        await page.getByRole('button', { name: `Deliveries of ${ids.ruleName}` }).click();
        await page.getByRole('dialog').getByTestId('alert-delivery').first().waitFor();
      },
    },
    {
      name: 'invitation link shown',
      path: '/operator/people',
      act: async (page) => {
        const form = page.getByRole('form', { name: 'Invite a person' });
        await form.getByRole('textbox', { name: 'Email' }).fill(`axe.${Date.now()}@example.com`);
        await form.getByRole('textbox', { name: 'Name' }).fill('Axe Colleague');
        await form.getByRole('button', { name: 'Invite' }).click();
        await page.getByTestId('invitation-link').waitFor();
      },
    },
    {
      name: 'member invitation offered',
      path: `${org}/members`,
      act: async (page) => {
        await page.getByRole('textbox', { name: 'Email' }).fill(`axe.member.${Date.now()}@example.com`);
        await page.getByRole('button', { name: 'Add user' }).click();
        await page.getByTestId('member-invitation').waitFor();
      },
    },
    {
      name: 'revoke confirmation',
      path: `${org}/members`,
      act: async (page) => {
        await page.getByRole('button', { name: 'Revoke access' }).first().click();
        await page.getByRole('dialog', { name: 'Please confirm' }).waitFor();
      },
    },
    {
      name: 'error toast',
      path: `${org}/members`,
      act: async (page) => {
        // user@ is a member already: the console refuses, in a toast.
        await page.getByRole('textbox', { name: 'Email' }).fill('user@fleetlink.local');
        await page.getByRole('button', { name: 'Add user' }).click();
        await page.getByRole('alert').filter({ hasText: 'is already a member of this organization.' }).waitFor();
      },
    },
    {
      name: 'new organization refused',
      path: '/organizations/new',
      act: async (page) => {
        await submit(page);
        await page.locator('[aria-invalid="true"]').first().waitFor();
      },
    },
    {
      name: 'two-factor being set up',
      path: '/profile/account',
      act: async (page) => {
        await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
        await page.getByTestId('two-factor-qr').waitFor();
      },
    },
  ];
  return [...pages.map((path) => ({ name: path, path })), ...states];
}
