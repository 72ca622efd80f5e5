import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { admin, user } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';
import { signIn } from './support/login';

const suite = useConsoleSuite();

/** The kinds of issue the console must never cause, on any page. */
const SECURITY_ISSUE = /^(ContentSecurityPolicyIssue|CookieIssue|MixedContentIssue|CorsIssue|BlockedByResponseIssue) /;

/**
 * What Chromium reports about a page as its DevTools Issues panel shows it (CDP `Audits.issueAdded`:
 * CSP violations, refused cookies, …) and the console's errors and warnings, from the first request on.
 */
async function watchIssues(page: Page) {
  const issues: string[] = [];
  const consoleProblems: string[] = [];
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Audits.issueAdded', ({ issue }) => issues.push(`${issue.code} ${JSON.stringify(issue.details).slice(0, 400)}`));
  await cdp.send('Audits.enable');
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') consoleProblems.push(`${message.type()} ${message.text()}`);
  });
  return { issues, consoleProblems };
}

describe('a clean browser', () => {
  it('reports no issue at all on the pages a user opens first: no CSP violation, no refused cookie', async () => {
    const organizations = await suite.api(user, 'GET', '/api/device-organizations');
    const device = await suite.api(user, 'POST', '/api/device', { organization: organizations.body[0].id, name: 'Clean browser', branch: 'PRODUCTION' });
    expect(device.status).toBe(201);

    const { page, pageErrors } = await suite.open();
    const watched = await watchIssues(page);
    // Through the provider's own sign-in page, where its cookies are set.
    await signIn(page, suite.stack.url, user, '/');
    await page.getByTestId('profile-menu').waitFor();
    await page.goto(`${suite.stack.url}/devices/search`);
    await page.getByText('Clean browser').first().waitFor();
    await page.goto(`${suite.stack.url}/devices/${device.body.id}`);
    await page.getByRole('heading', { name: 'Clean browser' }).first().waitFor();
    await page.goto(`${suite.stack.url}/organizations`);
    await page.getByTestId('organization-card').first().waitFor();
    // A reload renews the session through the silent check iframe, which reads the provider's cookie.
    await page.reload();
    await page.getByTestId('organization-card').first().waitFor();

    expect(watched.issues).toEqual([]);
    expect(watched.consoleProblems.filter((m) => /Content.Security.Policy|cookie/i.test(m))).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('reports no CSP, cookie or mixed-content issue on any page, Swagger UI and the CAPTCHA included', async () => {
    const organizations = await suite.api(admin, 'GET', '/api/device-organizations');
    const organization = organizations.body[0].id;
    const device = await suite.api(admin, 'POST', '/api/device', { organization, name: 'Every page', branch: 'PRODUCTION' });
    const d = `/devices/${device.body.id}`;
    const o = `/organizations/${organization}`;
    const pages = [
      ...['', '/install', '/edit', '/tunnels', '/tunnels/new', '/file', '/monitor', '/monitor/new', '/command', '/servers', '/activity'].map((tab) => d + tab),
      ...['', '/members', '/invoices', '/activity', '/edit'].map((tab) => o + tab),
      '/devices',
      '/devices/new',
      '/organizations/new',
      '/servers',
      '/servers/new',
      '/agent/bundles',
      '/agent/releases',
      '/agent/releases/new',
      '/operator',
      '/operator/audit',
      '/terms-service',
      '/privacy-policy',
      '/contact',
      '/no-such-page',
      '/api/docs/',
    ];

    const { page } = await suite.open();
    const watched = await watchIssues(page);
    await signIn(page, suite.stack.url, admin, '/');
    for (const path of pages) {
      await page.goto(`${suite.stack.url}${path}`, { waitUntil: 'networkidle' });
    }
    // The CAPTCHA's proof of work runs in workers, which the CSP must allow as well.
    await page.goto(`${suite.stack.url}/contact`);
    await page.getByTestId('captcha').getByText("I'm not a robot").click();
    await page.getByTestId('captcha').getByText('Verified').waitFor({ timeout: 30_000 });

    expect(watched.issues.filter((issue) => SECURITY_ISSUE.test(issue))).toEqual([]);
    expect(watched.consoleProblems.filter((m) => /Content.Security.Policy|cookie/i.test(m))).toEqual([]);
  }, 120_000);
});

describe('answers that are not the SPA', () => {
  it('serves a robots file that keeps crawlers out', async () => {
    const res = await fetch(`${suite.stack.url}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('User-agent: *\nDisallow: /\n');
  });

  it('never answers the SPA’s page for an unknown API or provider path', async () => {
    const index = await (await fetch(`${suite.stack.url}/devices/search`)).text();
    expect(index).toContain('<div id="root">');
    // A HEAD of a page (a link checker's) gets the page's answer, without its body.
    const head = await fetch(`${suite.stack.url}/devices/search`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    for (const [method, path] of [
      ['GET', '/api'],
      ['GET', '/api/'],
      ['GET', '/api/no-such-thing'],
      ['GET', '/api/device/5d0f0c1e-0000-4000-8000-000000000000/no-such-tab'],
      ['POST', '/api/no-such-thing'],
      ['GET', '/idp'],
      ['GET', '/idp/no-such-thing'],
      ['POST', '/idp/no-such-thing'],
    ]) {
      const res = await fetch(`${suite.stack.url}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get('content-type'), `${method} ${path}`).toMatch(/^application\/json/);
    }
  });
});
