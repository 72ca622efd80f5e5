import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { passwordLogin } from '../../apps/server/src/idp/password-login.js';
import type { SeededAccount } from './accounts';
import { launchBrowser, openPage, type OpenedPage } from './browser';
import { signIn } from './login';
import { startStack, type Stack } from './stack';

export interface ConsoleSuite {
  readonly stack: Stack;
  readonly browser: Browser;
  /** A page in a fresh browser context, closed after the test. */
  open(viewport?: { width: number; height: number }): Promise<OpenedPage>;
  /** A fresh page signed in as the account through the provider's page, landed on `path`. */
  signedIn(account: SeededAccount, path?: string): Promise<OpenedPage>;
  /** Calls the console's API as the account (a real token from the built-in provider). */
  api(account: SeededAccount, method: string, path: string, json?: unknown): Promise<{ status: number; body: any }>;
}

/**
 * The set-up every browser spec shares: one real console (child process, fresh data) and one
 * Chromium per spec file, a fresh context per page, everything closed afterwards.
 */
export function useConsoleSuite(env: Record<string, string> = {}): ConsoleSuite {
  let stack: Stack;
  let browser: Browser;
  const opened: OpenedPage[] = [];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(env), launchBrowser()]);
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map(({ context }) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const suite: ConsoleSuite = {
    get stack() {
      return stack;
    },
    get browser() {
      return browser;
    },
    async open(viewport) {
      const o = await openPage(browser, viewport);
      opened.push(o);
      return o;
    },
    async signedIn(account, path = '/') {
      const o = await suite.open();
      await signIn(o.page, stack.url, account, path);
      return o;
    },
    async api(account, method, path, json) {
      const { access_token } = await passwordLogin({ consoleUrl: stack.url, email: account.email, password: account.password });
      const res = await fetch(`${stack.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${access_token}`, ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: json !== undefined ? JSON.stringify(json) : undefined,
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
  };
  return suite;
}
