import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEVICE_LIST } from '../apps/web/vite-plugins/budgets';
import { guest, user } from './support/accounts';
import { PROVIDER_LOGIN_URL, signInAtProvider } from './support/login';
import { useConsoleSuite } from './support/console-suite';
import { createCompany } from './support/live-device';

const suite = useConsoleSuite();

interface Fetched {
  url: string;
  type: string;
  status: number;
  headers: Record<string, string>;
  /** Bytes as transferred (compressed body and headers); 0 when served from the browser's cache. */
  transferred: number;
  fromCache: boolean;
  /** The scripts on the stack that asked for it (a request of the page's code). */
  askedBy: string[];
}

/** Every request the page makes, as Chromium's network panel sees it (with what came from its cache). */
async function recordNetwork(page: Page): Promise<{ fetched: Fetched[]; cdp: CDPSession }> {
  const cdp = await page.context().newCDPSession(page);
  const byId = new Map<string, Fetched>();
  const askers = new Map<string, string[]>();
  const fetched: Fetched[] = [];
  await cdp.send('Network.enable');
  cdp.on('Network.requestWillBeSent', ({ requestId, initiator }) => {
    const urls: string[] = [];
    for (let stack = initiator.stack; stack; stack = stack.parent) urls.push(...stack.callFrames.map((frame) => frame.url));
    askers.set(requestId, urls);
  });
  cdp.on('Network.requestServedFromCache', ({ requestId }) => {
    const f = byId.get(requestId);
    if (f) f.fromCache = true;
  });
  cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
    const headers = Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    const f: Fetched = {
      url: response.url,
      type,
      status: response.status,
      headers,
      transferred: 0,
      fromCache: Boolean(response.fromDiskCache || response.fromPrefetchCache),
      askedBy: askers.get(requestId) ?? [],
    };
    byId.set(requestId, f);
    fetched.push(f);
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const f = byId.get(requestId);
    if (f) f.transferred = f.fromCache ? 0 : encodedDataLength;
  });
  return { fetched, cdp };
}

const isAsset = (f: Fetched) => new URL(f.url).pathname.startsWith('/assets/') && /\.(js|css)$/.test(new URL(f.url).pathname);
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

async function showDeviceList(page: Page, url: string, device: string) {
  await page.goto(url);
  await page.getByText(device).first().waitFor();
}

describe('a light first load (issue 68)', () => {
  it('sends a signed-out visitor to sign in with only the bootstrap loaded; the device list then comes compressed, cached and within budget', async () => {
    const organization = await createCompany(suite, user, 'Light Load Co');
    const device = 'light-load-device';
    const created = await suite.api(user, 'POST', '/api/device', { organization, name: device, branch: 'PRODUCTION' });
    expect(created.status).toBe(201);
    const deviceId = (created.body as { id: string }).id;
    const listUrl = `${suite.stack.url}/devices/search`;

    // Signed out: the bootstrap and the OIDC client, then the provider's page. No React, no Mantine.
    const { page, context } = await suite.open();
    const signedOut = await recordNetwork(page);
    await page.goto(listUrl);
    await page.waitForURL(PROVIDER_LOGIN_URL);
    const beforeSignIn = signedOut.fetched.filter((f) => isAsset(f) && new URL(f.url).host === new URL(suite.stack.url).host);
    const names = beforeSignIn.map((f) => new URL(f.url).pathname.replace(/^\/assets\//, ''));
    console.log(`signed out, before the sign-in page: ${names.join(', ')} (${kB(beforeSignIn.reduce((s, f) => s + f.transferred, 0))})`);
    expect(names.every((n) => /^boot-[\w-]+\.js$/.test(n)), names.join(', ')).toBe(true);
    // Its page names nothing of the console to preload: the bootstrap and the sign-in's first question.
    const signedOutPage = signedOut.fetched.find((f) => f.type === 'Document');
    const signedOutLinks = (signedOutPage?.headers.link ?? '').split(', ').map((link) => /^<([^>]+)>/.exec(link)?.[1]?.replace(/^\/assets\/|-[\w-]+\.js$/g, ''));
    expect(signedOutLinks).toEqual(['boot', '/api/config', `${suite.stack.url}/idp/.well-known/openid-configuration`]);
    await signInAtProvider(page, user);
    await page.getByText(device).first().waitFor();
    expect(page.url()).toBe(listUrl);

    // The first load of a signed-in user, on an empty cache: the provider's session cookie only.
    const fresh: BrowserContext = await suite.browser.newContext({ storageState: await context.storageState() });
    try {
      const first = await fresh.newPage();
      const firstNetwork = await recordNetwork(first);
      await showDeviceList(first, listUrl, device);
      const assets = firstNetwork.fetched.filter(isAsset);
      const js = assets.filter((f) => f.url.endsWith('.js'));
      const css = assets.filter((f) => f.url.endsWith('.css'));
      const sum = (list: Fetched[]) => list.reduce((s, f) => s + f.transferred, 0);
      console.log(
        `first load of the device list: ${js.length} scripts, ${kB(sum(js))} of JavaScript; ${css.length} stylesheets, ${kB(sum(css))} of CSS (as transferred)\n` +
          assets.map((f) => `  ${new URL(f.url).pathname.padEnd(52)} ${kB(f.transferred).padStart(9)} ${f.headers['content-encoding'] ?? 'identity'}`).join('\n'),
      );
      for (const f of assets) {
        expect(f.headers['content-encoding'], f.url).toBe('br');
        expect(f.headers['cache-control'], f.url).toBe('public, max-age=31536000, immutable');
        // Of the security headers, those that apply to a script or a stylesheet; the page's own are the page's.
        expect(f.headers['x-content-type-options'], f.url).toBe('nosniff');
        expect(f.headers['content-security-policy'], f.url).toBeUndefined();
      }
      const document = firstNetwork.fetched.find((f) => f.type === 'Document');
      expect(document?.headers['content-security-policy']).toContain("script-src 'self'");
      expect(document?.headers['content-encoding']).toBe('br');
      expect(document?.headers['cache-control']).toBe('no-cache');
      // The sign-in's first question (the provider's discovery document) is asked while the bootstrap
      // loads, by the page's Link header, and asked once: the bootstrap's own request takes the preload.
      // To this browser, someone was signed in with (the session hint), the page names the console's
      // code as well, fetched while the bootstrap runs rather than after: each file once.
      const links = (document?.headers.link ?? '').split(', ');
      expect(links).toContain(`<${suite.stack.url}/idp/.well-known/openid-configuration>; rel=preload; as=fetch; crossorigin=anonymous`);
      const preloaded = links.map((link) => /^<\/(assets\/[^>]+)>/.exec(link)?.[1]).filter((file) => file !== undefined);
      for (const wanted of [/^assets\/boot-/, /^assets\/react-[\w-]+\.js$/, /^assets\/styles-[\w-]+\.css$/, /^assets\/DeviceSearchPage-[\w-]+\.js$/]) {
        expect(preloaded.some((file) => wanted.test(file)), `${wanted} in\n${links.join('\n')}`).toBe(true);
      }
      const fetchedPaths = assets.map((f) => new URL(f.url).pathname);
      for (const file of preloaded) expect(fetchedPaths.filter((p) => p === `/${file}`), `${file}`).toHaveLength(1);
      expect(document?.headers.vary).toContain('Cookie');
      expect(firstNetwork.fetched.filter((f) => f.url.endsWith('/.well-known/openid-configuration'))).toHaveLength(1);
      expect(firstNetwork.fetched.filter((f) => new URL(f.url).pathname === '/api/config')).toHaveLength(1);
      // The console's stylesheet is one file, whatever the page (its pages' styles together).
      expect(css.map((f) => new URL(f.url).pathname)).toEqual([expect.stringMatching(/^\/assets\/styles-[\w-]+\.css$/)]);
      // The list's question was asked by the bootstrap once signed in, while the console's code was
      // still on its way, and the page found it answered: once.
      const listQuestions = firstNetwork.fetched.filter((f) => new URL(f.url).pathname === '/api/devices');
      expect(listQuestions).toHaveLength(1);
      expect(listQuestions[0]!.askedBy.some((url) => /\/assets\/boot-[\w-]+\.js$/.test(url)), listQuestions[0]!.askedBy.join(', ')).toBe(true);
      // No schema library: the list's answers come as the server checked them, and it has no form.
      expect(js.map((f) => new URL(f.url).pathname).filter((p) => /\/zod-[\w-]+\.js$/.test(p))).toEqual([]);
      // As transferred, headers included (what Lighthouse counts), within the budget the build holds the bodies to.
      expect(sum(js)).toBeLessThanOrEqual(DEVICE_LIST.maxJsBytes);
      expect(sum(css)).toBeLessThanOrEqual(DEVICE_LIST.maxCssBytes);

      // The second visit: every script and stylesheet from the browser's cache, not one asked for.
      const second = await fresh.newPage();
      const secondNetwork = await recordNetwork(second);
      await showDeviceList(second, listUrl, device);
      const asked = secondNetwork.fetched.filter((f) => isAsset(f) && !f.fromCache);
      console.log(`second visit: ${secondNetwork.fetched.filter(isAsset).length} scripts and stylesheets from the cache, ${asked.length} asked for`);
      expect(asked.map((f) => f.url)).toEqual([]);

      // A device's page opened from a link: its device asked for once too, by the bootstrap.
      const detail = await fresh.newPage();
      const detailNetwork = await recordNetwork(detail);
      await detail.goto(`${suite.stack.url}/devices/${deviceId}`);
      await detail.getByRole('heading', { name: device }).waitFor();
      const deviceQuestions = detailNetwork.fetched.filter((f) => new URL(f.url).pathname === `/api/device/${deviceId}`);
      expect(deviceQuestions).toHaveLength(1);
      expect(deviceQuestions[0]!.askedBy.some((url) => /\/assets\/boot-[\w-]+\.js$/.test(url))).toBe(true);
    } finally {
      await fresh.close();
    }
  }, 120_000);

  it("shows a page whose code cannot be loaded as failed, in the console's frame, and the next page as usual", async () => {
    const { page } = await suite.signedIn(user, '/devices/search');
    await page.getByRole('heading', { name: 'Find devices' }).waitFor();
    // The network drops the contact page's chunk (as when a new release replaced the files).
    await page.route(/\/assets\/ContactPage-[\w-]+\.js$/, (route) => route.abort('connectionreset'));
    await page.getByRole('link', { name: 'Contact' }).click();
    await page.getByRole('heading', { name: 'This page failed to load' }).waitFor();
    // The frame is still there and works: its menus lead on, and the error goes with the page.
    await page.getByRole('link', { name: 'Terms of service' }).click();
    await page.waitForURL(/\/terms-service$/);
    await expect.poll(() => page.getByRole('heading', { name: 'This page failed to load' }).count()).toBe(0);
    await page.goBack();
    await page.getByRole('heading', { name: 'This page failed to load' }).waitFor();
  }, 60_000);

  it("asks nothing ahead for someone the page is not for: a guest landing on the device list is told access is denied, with no alert", async () => {
    const { page } = await suite.open();
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await page.goto(`${suite.stack.url}/devices/search`);
    await signInAtProvider(page, guest);
    await page.getByTestId('access-denied').waitFor();
    // Long enough for a question asked ahead to have been answered, and its refusal shown.
    await page.waitForTimeout(1000);
    expect(asked.filter((path) => path.startsWith('/api/devices'))).toEqual([]);
    expect(await page.getByRole('alert').allInnerTexts()).toEqual([]);
  }, 60_000);
});
