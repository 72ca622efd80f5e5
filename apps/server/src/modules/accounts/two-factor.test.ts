import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, idpAccounts } from '../../db/schema/index.js';
import { authorizationRequest, fetchWithCookies, formPost, passwordLogin, signInForm } from '../../idp/password-login.js';
import { startSmtpSink, type SmtpSink } from '../../testing/smtp-sink.js';
import { startTestConsole, type TestConsole } from '../../testing/test-console.js';
import { SECRET_KEY_FILE } from '../system/secret-key.js';
import { choosePassword, passwordLinkIn, refreshWith } from './accounts.test-support.js';

const ADMIN = 'admin@fleetlink.local';
const PASSWORD = 'correct horse battery staple';

/** The code an authenticator app shows now, or for the next 30-second step (a code is taken once). */
const codeOf = (secret: string, stepsAhead = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * stepsAhead });

/**
 * Issue 72's second factor against the real console, provider and database: a person turns TOTP
 * on at their profile (codes computed here as an app would), signs in with a code or a recovery
 * code (each once), wrong codes are limited like passwords, an ADMIN resets it and can require it
 * of every ADMIN, who then sets it up while signing in.
 */
describe('two-factor authentication at the built-in sign-in', () => {
  let c: TestConsole;
  let sink: SmtpSink;

  /** Invited by the ADMIN, password chosen through the mailed link: signed in. */
  const person = async (email: string, role = 'USER') => {
    const invited = await c.call(ADMIN, 'POST', '/api/accounts', { email, name: email, role });
    expect(invited.status).toBe(201);
    await expect.poll(() => sink.mails.some((m) => m.to.includes(email)), { timeout: 10_000 }).toBe(true);
    expect((await choosePassword(passwordLinkIn(sink.mails.find((m) => m.to.includes(email))!.raw), PASSWORD)).status).toBe(200);
    const tokens = await passwordLogin({ consoleUrl: c.url, email, password: PASSWORD });
    const as = (method: string, pathname: string, json?: unknown) =>
      c.api(pathname, { method, token: tokens.access_token, json }).then(async (r) => ({ status: r.status, headers: r.headers, body: r.status === 204 ? undefined : await r.json() }));
    return { id: invited.body.account.id as string, email, as };
  };
  /** Two-factor turned on at the profile: the secret, as the app keeps it, and the recovery codes. */
  const turnOn = async (p: Awaited<ReturnType<typeof person>>) => {
    const setup = await p.as('POST', '/api/account/two-factor/setup');
    expect(setup.status).toBe(200);
    expect(setup.headers.get('cache-control')).toBe('no-store');
    const on = await p.as('POST', '/api/account/two-factor', { code: await codeOf(setup.body.secret) });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    return { secret: setup.body.secret as string, recoveryCodes: on.body.recoveryCodes as string[] };
  };
  const signInAudit = async (email: string) =>
    (await c.database.db.select().from(auditEntries).where(inArray(auditEntries.kind, ['sign-in'])))
      .filter((e) => e.username === email)
      .map((e) => ({ details: e.details, outcome: e.outcome, error: e.error }));

  beforeAll(async () => {
    sink = await startSmtpSink();
    // The per-address limit is the same for every test here (all from 127.0.0.1): out of the way.
    c = await startTestConsole({ SMTP_URL: `smtp://127.0.0.1:${sink.port}`, CONTACT_TO: 'ops@fleetlink.example', SIGN_IN_LIMIT_ADDRESS: '1000' });
    await c.signIn(ADMIN);
  }, 60_000);
  afterAll(async () => {
    await c?.close();
    await sink?.close();
  });

  it('is turned on at the profile with a code from the app; sign-in then asks for a code, each taken once; a recovery code signs in once', async () => {
    const tia = await person('tia@example.com');
    expect((await tia.as('GET', '/api/account')).body.twoFactor).toEqual({ enabled: false, recoveryCodesLeft: 0, required: false });
    const setup = await tia.as('POST', '/api/account/two-factor/setup');
    expect(setup.body.uri).toBe(`otpauth://totp/Fleetlink:tia%40example.com?secret=${setup.body.secret}&issuer=Fleetlink`);
    expect(setup.body.qrSvg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    // A wrong code does not turn it on.
    expect((await tia.as('POST', '/api/account/two-factor', { code: '000000' })).body).toMatchObject({ fields: { code: 'The code is not right: type the one your authenticator app shows now.' } });
    const on = await tia.as('POST', '/api/account/two-factor', { code: await codeOf(setup.body.secret) });
    expect(on.body.recoveryCodes).toHaveLength(10);
    expect(on.body.recoveryCodes[0]).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await tia.as('GET', '/api/account')).body.twoFactor).toEqual({ enabled: true, recoveryCodesLeft: 10, required: false });
    expect((await c.call(ADMIN, 'GET', '/api/accounts?search=tia')).body.items[0].twoFactor).toBe(true);
    // Sealed at rest.
    const [row] = await c.database.db.select().from(idpAccounts).where(eq(idpAccounts.id, tia.id));
    expect(row!.totpSecret).toMatch(/^sealed:v1:/);
    expect(row!.totpSecret).not.toContain(setup.body.secret);

    await expect(passwordLogin({ consoleUrl: c.url, email: tia.email, password: PASSWORD })).rejects.toThrow('Sign-in needs a second factor');
    await expect(passwordLogin({ consoleUrl: c.url, email: tia.email, password: PASSWORD, secondFactor: () => '123456' })).rejects.toThrow('the second factor was not right');
    // The code that turned it on was taken: the next step's code signs in, and only once.
    const next = await codeOf(setup.body.secret, 1);
    expect((await passwordLogin({ consoleUrl: c.url, email: tia.email, password: PASSWORD, secondFactor: () => next })).access_token).toBeTruthy();
    await expect(passwordLogin({ consoleUrl: c.url, email: tia.email, password: PASSWORD, secondFactor: () => next })).rejects.toThrow('the second factor was not right');
    // A recovery code, as written or typed loosely, once.
    const recovery = on.body.recoveryCodes[3] as string;
    expect((await passwordLogin({ consoleUrl: c.url, email: tia.email, password: PASSWORD, secondFactor: () => ` ${recovery.toUpperCase().replace('-', ' ')} ` })).access_token).toBeTruthy();
    await expect(passwordLogin({ consoleUrl: c.url, email: tia.email, password: PASSWORD, secondFactor: () => recovery })).rejects.toThrow('the second factor was not right');
    expect((await tia.as('GET', '/api/account')).body.twoFactor.recoveryCodesLeft).toBe(9);

    const audited = await signInAudit(tia.email);
    expect(audited).toEqual(
      expect.arrayContaining([
        { details: { secondFactor: 'none' }, outcome: 'ok', error: null },
        { details: { secondFactor: 'totp' }, outcome: 'ok', error: null },
        { details: { secondFactor: 'recovery-code' }, outcome: 'ok', error: null },
        { details: { secondFactor: 'code' }, outcome: 'error', error: 'The code is not right: type the one your authenticator app shows now, or one of your recovery codes.' },
      ]),
    );
    expect((await c.database.db.select().from(auditEntries).where(eq(auditEntries.kind, 'account.two-factor-enable'))).map((e) => e.details)).toEqual([{ accountId: tia.id, email: tia.email }]);
  });

  it('limits wrong codes as it limits passwords, apart from them: a right password does not wipe the codes guessed', async () => {
    const uma = await person('uma@example.com');
    const { secret } = await turnOn(uma);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      // A new sign-in each time: the password is right, the codes are guesses that add up.
      const jar = new Map<string, string>();
      const auth = authorizationRequest(c.url, 'fleetlink-console', { scope: 'openid', state: 'x' });
      const uid = (await fetchWithCookies(new URL(auth.url), jar)).headers.get('location')!.split('/').pop();
      expect((await fetchWithCookies(new URL(`/idp/interaction/${uid}/login`, c.url), jar, signInForm(uma.email, PASSWORD))).status).toBe(200);
      for (let j = 0; j < 3; j++) {
        const res = await fetchWithCookies(new URL(`/idp/interaction/${uid}/second-factor`, c.url), jar, formPost({ code: '999999' }));
        statuses.push(res.status);
        if (res.status === 429) expect(await res.text()).toContain('Too many failed sign-ins for this account. Try again in');
      }
    }
    // Five free failures (SIGN_IN_LIMIT_ACCOUNT), the sixth counted, then the waits begin.
    expect(statuses.slice(0, 6)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(statuses.slice(6)).toContain(429);
    // While the wait lasts, even the right code is not looked at.
    await expect(passwordLogin({ consoleUrl: c.url, email: uma.email, password: PASSWORD, secondFactor: () => codeOf(secret, 1) })).rejects.toThrow('too many wrong codes');
  });

  it('is turned off with a code, or reset by an ADMIN (audited); new recovery codes replace the old', async () => {
    const vic = await person('vic@example.com');
    const { secret, recoveryCodes } = await turnOn(vic);
    const renewed = await vic.as('POST', '/api/account/two-factor/recovery-codes', { code: await codeOf(secret, 1) });
    expect(renewed.body.recoveryCodes).toHaveLength(10);
    await expect(passwordLogin({ consoleUrl: c.url, email: vic.email, password: PASSWORD, secondFactor: () => recoveryCodes[0]! })).rejects.toThrow('the second factor was not right');
    expect((await vic.as('POST', '/api/account/two-factor/disable', { code: 'nonsense' })).status).toBe(400);
    expect((await vic.as('POST', '/api/account/two-factor/disable', { code: renewed.body.recoveryCodes[0] })).status).toBe(204);
    expect((await vic.as('GET', '/api/account')).body.twoFactor.enabled).toBe(false);
    await passwordLogin({ consoleUrl: c.url, email: vic.email, password: PASSWORD });

    await turnOn(vic);
    expect((await c.call(ADMIN, 'DELETE', `/api/accounts/${vic.id}/two-factor`)).status).toBe(204);
    expect((await c.call(ADMIN, 'DELETE', `/api/accounts/${vic.id}/two-factor`)).body.message).toBe('vic@example.com has no two-factor authentication to reset.');
    await passwordLogin({ consoleUrl: c.url, email: vic.email, password: PASSWORD });
    const kinds = ['account.two-factor-disable', 'account.two-factor-reset', 'account.recovery-codes'];
    const entries = (await c.database.db.select().from(auditEntries).where(inArray(auditEntries.kind, kinds))).filter((e) => (e.details as { email?: string }).email === vic.email);
    expect(entries.map((e) => [e.kind, e.username])).toEqual([
      ['account.recovery-codes', vic.email],
      ['account.two-factor-disable', vic.email],
      ['account.two-factor-reset', ADMIN],
    ]);
    // Only a realm ADMIN resets.
    expect((await vic.as('DELETE', `/api/accounts/${vic.id}/two-factor`)).status).toBe(403);
  });

  it('required of every ADMIN: one without sets the app up while signing in, and cannot turn it off; others are not asked', async () => {
    const wes = await person('wes@example.com', 'ADMIN');
    const xia = await person('xia@example.com');
    // Wes signed in before the rule: a session at the provider, and a refresh token.
    const jar = new Map<string, string>();
    const before = await passwordLogin({ consoleUrl: c.url, email: wes.email, password: PASSWORD, jar });
    expect((await c.call(ADMIN, 'PUT', '/api/account-settings', { adminTwoFactorRequired: true })).body).toEqual({ adminTwoFactorRequired: true });
    try {
      // The rule ends that sign-in: the refresh token is refused, and the session asks for the sign-in again.
      const refreshed = await refreshWith(c.url, before.refresh_token!);
      expect((await refreshed.json()).error).toBe('invalid_grant');
      const again = authorizationRequest(c.url, 'fleetlink-console', { scope: 'openid', state: 'x' });
      expect((await fetchWithCookies(new URL(again.url), jar)).headers.get('location')).toMatch(/^\/idp\/interaction\//);
      await expect(passwordLogin({ consoleUrl: c.url, email: wes.email, password: PASSWORD })).rejects.toThrow('Sign-in needs a second factor');
      let secret = '';
      const signedIn = await passwordLogin({
        consoleUrl: c.url,
        email: wes.email,
        password: PASSWORD,
        secondFactor: ({ setupSecret }) => {
          secret = setupSecret!;
          return codeOf(secret);
        },
      });
      expect(signedIn.recoveryCodes).toHaveLength(10);
      const mine = await c.api('/api/account', { token: signedIn.access_token }).then((r) => r.json());
      expect(mine.twoFactor).toEqual({ enabled: true, recoveryCodesLeft: 10, required: true });
      const off = await c.api('/api/account/two-factor/disable', { method: 'POST', token: signedIn.access_token, json: { code: signedIn.recoveryCodes![0] } });
      expect(off.status).toBe(409);
      expect((await off.json()).message).toBe('Two-factor authentication is required for administrators here: it stays on.');
      // From now on a code, as for anyone who has it.
      await passwordLogin({ consoleUrl: c.url, email: wes.email, password: PASSWORD, secondFactor: () => codeOf(secret, 1) });
      // A USER is not asked.
      await passwordLogin({ consoleUrl: c.url, email: xia.email, password: PASSWORD });
      expect((await c.database.db.select().from(auditEntries).where(eq(auditEntries.kind, 'account.settings'))).map((e) => [e.username, e.details])).toEqual([[ADMIN, { adminTwoFactorRequired: true }]]);
    } finally {
      await c.call(ADMIN, 'PUT', '/api/account-settings', { adminTwoFactorRequired: false });
    }
  });

  // Two consoles on one PostgreSQL: a code taken at one is refused at the other; the rule set at one is asked at the other.
  it.skipIf(!process.env.TEST_DATABASE_URL)('holds across two consoles', async () => {
    const key = readFileSync(path.join(c.dataDir, SECRET_KEY_FILE), 'utf8').trim();
    const other = await startTestConsole({ DATABASE_URL: c.env.DATABASE_URL!, PUBLIC_URL: c.env.PUBLIC_URL, SECRET_KEY: key, SIGN_IN_LIMIT_ADDRESS: '1000' });
    try {
      const yan = await person('yan@example.com');
      const { secret } = await turnOn(yan);
      const code = await codeOf(secret, 1);
      await passwordLogin({ consoleUrl: other.url, email: yan.email, password: PASSWORD, secondFactor: () => code });
      await expect(passwordLogin({ consoleUrl: c.url, email: yan.email, password: PASSWORD, secondFactor: () => code })).rejects.toThrow('the second factor was not right');
      // The requirement set at one console is asked at the other.
      const zed = await person('zed@example.com', 'ADMIN');
      await c.call(ADMIN, 'PUT', '/api/account-settings', { adminTwoFactorRequired: true });
      await expect(passwordLogin({ consoleUrl: other.url, email: zed.email, password: PASSWORD })).rejects.toThrow('Sign-in needs a second factor');
    } finally {
      await c.call(ADMIN, 'PUT', '/api/account-settings', { adminTwoFactorRequired: false });
      await other.close();
    }
  });
});
