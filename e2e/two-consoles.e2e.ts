import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBalancer, type Balancer } from '../apps/server/src/testing/balancer.test-support.js';
import { startConsoleProcess, type ConsoleProcess } from '../apps/server/src/testing/console-process.test-support.js';
import { createTestDatabase, freePort } from '../apps/server/src/testing/test-console.js';
import { tempDir } from '../apps/server/src/modules/broker/broker.test-support.js';
import { passwordLogin } from '../apps/server/src/idp/password-login.js';
import { user } from './support/accounts';
import { launchBrowser, openPage } from './support/browser';
import { logOut, PROVIDER_LOGIN_URL, signIn } from './support/login';

/**
 * Issue 60: a person signs in at console A, goes on at console B with the same token, and logs out
 * at B, which ends the session at A too. Both consoles run on one PostgreSQL database (CI's second
 * stage sets TEST_DATABASE_URL) behind a balancer the test points at one console or the other.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('two consoles in the browser', () => {
  let database: { url: string; drop(): Promise<void> };
  let lb: Balancer;
  const consoles: ConsoleProcess[] = [];
  const ports = { a: 0, b: 0 };
  const dirs: string[] = [];
  let browser: Browser;

  beforeAll(async () => {
    database = (await createTestDatabase('fleetlink_two_e2e'))!;
    lb = await startBalancer();
    [ports.a, ports.b] = [await freePort(), await freePort()];
    const shared = { DATABASE_URL: database.url, PUBLIC_URL: lb.url, SECRET_KEY: randomBytes(32).toString('base64'), HOST: '127.0.0.1', MQTT_EMBEDDED_PORT: '0', TUNNEL_SSH_PORT: '0' };
    const start = (port: number) => {
      const dir = tempDir('fleetlink-e2e-two-');
      dirs.push(dir);
      return startConsoleProcess({ ...shared, PORT: String(port), DATA_DIR: dir });
    };
    consoles.push(...(await Promise.all([start(ports.a), start(ports.b)])));
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all(consoles.map((c) => c.kill()));
    await lb?.close();
    await database?.drop();
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  it('signs in at A, goes on at B with the same token, and a logout at B ends the session at A', async () => {
    const { page, context, pageErrors } = await openPage(browser);
    const bearers: { port: number; bearer: string }[] = [];
    const only = (port: number) => {
      lb.backends = [port];
      return port;
    };
    let current = only(ports.a);
    page.on('request', (request) => {
      const bearer = request.headers().authorization;
      if (bearer && new URL(request.url()).pathname.startsWith('/api/')) bearers.push({ port: current, bearer });
    });

    await signIn(page, lb.url, user, '/');
    await expect.poll(() => bearers.filter((b) => b.port === ports.a).length).toBeGreaterThan(0);
    // The balancer counts a request when its answer comes: the count is taken once the page's first
    // calls were all answered (it stays the same for a second), not while some are still at A.
    let servedByA = 0;
    await expect
      .poll(async () => {
        const before = lb.served.get(ports.a) ?? 0;
        await new Promise((r) => setTimeout(r, 1000));
        servedByA = lb.served.get(ports.a) ?? 0;
        return servedByA === before;
      }, { timeout: 15_000 })
      .toBe(true);
    expect(servedByA).toBeGreaterThan(0);
    expect(lb.served.get(ports.b) ?? 0).toBe(0);

    // B from now on, without a reload: the page goes on with the token A's provider gave.
    current = only(ports.b);
    await page.getByRole('link', { name: 'Organizations' }).first().click();
    await page.waitForURL(`${lb.url}/organizations`);
    await expect.poll(() => bearers.filter((b) => b.port === ports.b).length).toBeGreaterThan(0);
    expect(new Set(bearers.map((b) => b.bearer)).size).toBe(1);
    expect(lb.served.get(ports.a)).toBe(servedByA);

    // Loaded again from B (tokens live in the page's memory only): B's provider knows the session
    // A's made, and gives a new token without asking for the password.
    await page.reload();
    await page.getByTestId('profile-menu').waitFor();
    expect(page.url()).toBe(`${lb.url}/organizations`);
    await expect.poll(() => new Set(bearers.map((b) => b.bearer)).size).toBe(2);
    expect(lb.served.get(ports.a)).toBe(servedByA);

    await logOut(page);

    // Back at A: its provider knows the session ended, and asks for the password again.
    current = only(ports.a);
    const later = await context.newPage();
    await later.goto(`${lb.url}/`);
    await later.waitForURL(PROVIDER_LOGIN_URL);
    await later.getByLabel('Email').waitFor();
    expect(lb.served.get(ports.a)).toBeGreaterThan(servedByA);
    expect(pageErrors).toEqual([]);
  }, 90_000);

  it('shows on a page served by A what a person changed at B, without a reload (issue 61)', async () => {
    lb.backends = [ports.a];
    const servedByB = lb.served.get(ports.b) ?? 0;
    const { access_token } = await passwordLogin({ consoleUrl: lb.url, email: user.email, password: user.password });
    const atB = async (method: string, path: string, json: unknown) => {
      const res = await fetch(`http://127.0.0.1:${ports.b}${path}`, { method, headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' }, body: JSON.stringify(json) });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBeLessThan(300);
      return body;
    };
    const org = await atB('POST', '/api/organization', { type: 'COMPANY', name: 'Two consoles live', country: 'NL', address: 'Dam 1, Amsterdam', email: 'ops@fleetlink.example' });
    const form = { organization: org.id, name: 'Box seen at A', branch: 'PRODUCTION' };
    const device = await atB('POST', '/api/device', form);

    // Everything the page asks, its live socket included, goes to A.
    const { page, pageErrors } = await openPage(browser);
    await signIn(page, lb.url, user, `/devices/${device.id}`);
    await page.getByRole('heading', { name: 'Box seen at A' }).waitFor();
    let loads = 0;
    page.on('load', () => loads++);
    await atB('PUT', `/api/device/${device.id}`, { ...form, name: 'Renamed at B' });
    await page.getByRole('heading', { name: 'Renamed at B' }).waitFor({ timeout: 5000 });
    expect(loads).toBe(0);
    expect(lb.served.get(ports.b) ?? 0).toBe(servedByB);
    expect(pageErrors).toEqual([]);
  }, 90_000);
});
