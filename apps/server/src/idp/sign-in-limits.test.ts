import { AuditKind } from '@fleetlink/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderBrowser } from '../testing/provider-browser.js';
import { startTestConsole, type TestConsole } from '../testing/test-console.js';
import { passwordLogin } from './password-login.js';
import { delayAfter, SignInLimits, waitText } from './sign-in-limits.js';

const alertOf = (html: string) => /<p class="error"[^>]* role="alert">([^<]*)<\/p>/.exec(html)?.[1];

describe('the waits after failed sign-ins', () => {
  it('costs nothing for the free failures, then doubles up to the maximum', () => {
    expect([0, 5, 6, 7, 8, 12, 14, 200].map((n) => delayAfter(n, 5, 900))).toEqual([0, 0, 2, 4, 8, 128, 512, 900]);
    expect(delayAfter(21, 20, 900)).toBe(2);
  });

  it('says them in seconds, then in minutes rounded up', () => {
    expect([1, 2, 59, 60, 61, 900].map(waitText)).toEqual(['1 second', '2 seconds', '59 seconds', '1 minute', '2 minutes', '15 minutes']);
  });
});

describe('sign-in limits at the built-in provider', () => {
  let c: TestConsole;
  beforeAll(async () => {
    c = await startTestConsole();
  });
  afterAll(async () => c?.close());

  it('refuses the 51st guess even with the right password, says how long to wait, and lets it in after', async () => {
    const browser = new ProviderBrowser(c.url);
    const action = await browser.openSignIn();
    const answers: number[] = [];
    for (let guess = 1; guess <= 50; guess++) answers.push((await browser.submit(action, 'admin@fleetlink.local', `guess-${guess}`)).status);
    // Five free failures, the sixth counted too, and then waits: the guesses in them are refused unchecked.
    expect(answers.slice(0, 6)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(answers.filter((s) => s === 429).length).toBeGreaterThan(40);

    const right = await browser.submit(action, 'admin@fleetlink.local', 'admin');
    expect(right.status).toBe(429);
    const retryAfter = Number(right.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(8);
    expect(alertOf(await right.text())).toBe(`Too many failed sign-ins for this account. Try again in ${waitText(retryAfter)}.`);

    // Another account from the same address is not held up by it.
    const other = new ProviderBrowser(c.url);
    expect((await other.submit(await other.openSignIn(), 'user@fleetlink.local', 'user')).status).toBe(303);

    await new Promise((r) => setTimeout(r, retryAfter * 1000 + 100));
    const after = await browser.submit(action, 'admin@fleetlink.local', 'admin');
    expect(after.status).toBe(303);
    // The provider finishes the sign-in where the form sends the browser.
    expect((await browser.fetch(after.headers.get('location')!)).headers.get('location')).toMatch(/\/auth\/callback\?code=/);

    // A success starts the account afresh: five free failures again.
    const again = new ProviderBrowser(c.url);
    const form = await again.openSignIn();
    for (let guess = 1; guess <= 5; guess++) expect((await again.submit(form, 'admin@fleetlink.local', 'wrong')).status).toBe(401);
  }, 60_000);

  it('lets parallel attempts from one address through while they are within the free failures', async () => {
    // On PostgreSQL the concurrent upserts of one row wait for each other, and each compares the
    // row another stamped with its own transaction's now(): a free attempt must pass regardless.
    const limits = new SignInLimits(c.database.db, { accountFreeFailures: 5, addressFreeFailures: 20, maxDelaySeconds: 900 });
    for (let round = 0; round < 3; round++) {
      const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => limits.claim(`parallel-${i}@example.com`, `192.0.2.${round}`)));
      expect(claims.filter((claim) => !claim.allowed)).toEqual([]);
    }
  });

  it('records the refused attempts in the audit trail, with the reason', async () => {
    const { rows } = await c.database.db.execute(
      sql`select error from audit_entries where kind = ${AuditKind.SignIn} and username = 'admin@fleetlink.local' order by id`,
    );
    const errors = rows.map((r) => r.error as string | null);
    expect(errors.filter((e) => e === 'Invalid email or password.').length).toBeGreaterThanOrEqual(6);
    expect(errors.filter((e) => e?.startsWith('Too many failed sign-ins for this account. Try again in ')).length).toBeGreaterThan(40);
    expect(errors).toContain(null);
  });

  it('limits one client address across logins, and takes no failure of its own for a success', async () => {
    const limited = await startTestConsole({ SIGN_IN_LIMIT_ADDRESS: '3' });
    try {
      const browser = new ProviderBrowser(limited.url);
      const action = await browser.openSignIn();
      // Successes from the address do not count against it.
      for (let i = 0; i < 4; i++) expect((await browser.submit(await browser.openSignIn(), 'user@fleetlink.local', 'user')).status).toBe(303);
      const statuses = [];
      for (const login of ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com', 'e@example.com']) {
        statuses.push((await browser.submit(action, login, 'password')).status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 429]);
      const refused = await browser.submit(action, 'guest@fleetlink.local', 'guest');
      expect(refused.status).toBe(429);
      expect(alertOf(await refused.text())).toMatch(/^Too many failed sign-ins from your network address\. Try again in \d seconds?\.$/);
      // Scripts (npm run token) say the page's words.
      await expect(passwordLogin({ consoleUrl: limited.url, email: 'guest@fleetlink.local', password: 'guest' })).rejects.toThrow(
        /^Sign-in refused: Too many failed sign-ins from your network address\. Try again in \d seconds?\.$/,
      );
    } finally {
      await limited.close();
    }
  }, 60_000);
});
