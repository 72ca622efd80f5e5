import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { user } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';
import { signIn } from './support/login';

const suite = useConsoleSuite();

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
  it('reports no CSP violation and no refused cookie on the pages a user opens first', async () => {
    const devices = await suite.api(user, 'GET', '/api/device-organizations');
    const device = await suite.api(user, 'POST', '/api/device', { organization: devices.body[0].id, name: 'Clean browser', branch: 'PRODUCTION' });
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
