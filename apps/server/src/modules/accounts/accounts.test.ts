import { readFileSync } from 'node:fs';
import path from 'node:path';
import { dictionary } from '@zxcvbn-ts/language-common';
import { eq, inArray } from 'drizzle-orm';
import { LiveClose } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, idpAccountLinks, idpAccounts } from '../../db/schema/index.js';
import { FORGOT_PAGE_PATH } from '../../idp/pages.js';
import { passwordLogin } from '../../idp/password-login.js';
import { startSmtpSink, type SmtpSink } from '../../testing/smtp-sink.js';
import { startTestConsole, type TestConsole } from '../../testing/test-console.js';
import { ACCOUNT_GONE } from '../../plugins/auth.js';
import { SECRET_KEY_FILE } from '../system/secret-key.js';
import { choosePassword, passwordLinkIn, refreshWith } from './accounts.test-support.js';
import { openLive } from '../live/live.test-support.js';

const ADMIN = 'admin@fleetlink.local';
const USER = 'user@fleetlink.local';
const GOOD_PASSWORD = 'correct horse battery staple';

/**
 * Issue 72 against the real console, its database, its provider and a real SMTP server: an ADMIN
 * invites a person, the mailed link sets their password once, they sign in; disabling and deleting
 * stop their access token, refresh token and API token at once.
 */
describe('accounts of the built-in sign-in', () => {
  let c: TestConsole;
  let sink: SmtpSink;

  const invite = async (email: string, role = 'USER') => {
    const res = await c.call(ADMIN, 'POST', '/api/accounts', { email, name: `Name of ${email}`, role });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { account: { id: string }; mailed: boolean; link: string | null; mailError: string | null };
  };
  const mailTo = async (email: string) => {
    await expect.poll(() => sink.mails.filter((m) => m.to.includes(email)).length, { timeout: 10_000 }).toBeGreaterThan(0);
    return sink.mails.filter((m) => m.to.includes(email)).at(-1)!;
  };
  /** Invited, password chosen through the mailed link, signed in: their tokens. */
  const colleague = async (email: string, role = 'USER') => {
    const { account } = await invite(email, role);
    expect((await choosePassword(passwordLinkIn((await mailTo(email)).raw), GOOD_PASSWORD)).status).toBe(200);
    const tokens = await passwordLogin({ consoleUrl: c.url, email, password: GOOD_PASSWORD });
    return { id: account.id, ...tokens };
  };
  const me = (token: string) => c.api('/api/me', { token });
  const auditOf = async (kinds: string[]) =>
    (await c.database.db.select().from(auditEntries).where(inArray(auditEntries.kind, kinds))).map((e) => ({ kind: e.kind, username: e.username, details: e.details, outcome: e.outcome }));

  beforeAll(async () => {
    sink = await startSmtpSink();
    c = await startTestConsole({ SMTP_URL: `smtp://127.0.0.1:${sink.port}`, CONTACT_TO: 'ops@fleetlink.example' });
    await c.signIn(ADMIN, USER);
  }, 60_000);
  afterAll(async () => {
    await c?.close();
    await sink?.close();
  });

  it('invites by mail; the link sets a password once (a short, common or mistyped one refused) and the person signs in', async () => {
    const invited = await invite('Ines@Example.com');
    expect(invited).toMatchObject({ mailed: true, link: null, mailError: null, account: { email: 'ines@example.com', role: 'USER', invited: true, disabled: false, lastSignInAt: null } });
    const mail = await mailTo('ines@example.com');
    expect(mail.raw).toMatch(/^Subject: You are invited to Fleetlink$/m);
    const link = passwordLinkIn(mail.raw);
    expect(link.startsWith(`${c.url}/idp/account/password?token=`)).toBe(true);
    // The console keeps the token's hash only.
    const [stored] = await c.database.db.select().from(idpAccountLinks).where(eq(idpAccountLinks.accountId, invited.account.id));
    expect(stored!.tokenHash).not.toContain(new URL(link).searchParams.get('token'));
    // Invited, no password yet: nothing signs in.
    await expect(passwordLogin({ consoleUrl: c.url, email: 'ines@example.com', password: 'anything at all' })).rejects.toThrow('invalid email or password');

    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('For ines@example.com');
    const common = dictionary['passwords-common'].find((p) => p.length >= 12)!;
    for (const [password, repeat, message] of [
      ['short one', 'short one', 'The password must be at least 12 characters.'],
      [common, common, 'This password is one of the most common ones: choose another.'],
      ['ines@example.com', 'ines@example.com', 'The password cannot be your email address.'],
      [GOOD_PASSWORD, `${GOOD_PASSWORD}!`, 'The two passwords differ: type the same one twice.'],
    ]) {
      const refused = await choosePassword(link, password!, repeat);
      expect(refused.status, password).toBe(400);
      expect(refused.text).toContain(message);
      // What was typed is not sent back.
      expect(refused.text).not.toMatch(/type="password"[^>]*value=/);
    }
    const saved = await choosePassword(link, GOOD_PASSWORD);
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('Password saved');
    // Used once: neither the page nor the form opens again.
    expect((await fetch(link)).status).toBe(410);
    const again = await choosePassword(link, 'another good password');
    expect(again.status).toBe(410);
    expect(again.text).toContain('This link has expired or was used already.');

    const tokens = await passwordLogin({ consoleUrl: c.url, email: 'ines@example.com', password: GOOD_PASSWORD });
    expect(await (await me(tokens.access_token)).json()).toMatchObject({ username: 'ines@example.com', roles: ['USER'] });
    const listed = await c.call(ADMIN, 'GET', '/api/accounts?search=INES');
    expect(listed.body).toMatchObject({ total: 1, items: [{ email: 'ines@example.com', invited: false }] });
    expect(listed.body.items[0].lastSignInAt).not.toBeNull();
    expect(await auditOf(['account.create', 'account.invite', 'account.password-set'])).toEqual(
      expect.arrayContaining([
        { kind: 'account.create', username: ADMIN, details: expect.objectContaining({ email: 'ines@example.com', role: 'USER' }), outcome: 'ok' },
        { kind: 'account.invite', username: ADMIN, details: expect.objectContaining({ email: 'ines@example.com', mailed: true }), outcome: 'ok' },
        { kind: 'account.password-set', username: 'ines@example.com', details: { accountId: invited.account.id }, outcome: 'ok' },
      ]),
    );
  });

  it('sends a new invitation that replaces the one before; refuses a taken email, bad input and a non-ADMIN', async () => {
    const first = await invite('jo@example.com');
    const firstLink = passwordLinkIn((await mailTo('jo@example.com')).raw);
    const again = await c.call(ADMIN, 'POST', `/api/accounts/${first.account.id}/invitation`);
    expect(again.status).toBe(200);
    await expect.poll(() => sink.mails.filter((m) => m.to.includes('jo@example.com')).length).toBe(2);
    const secondLink = passwordLinkIn((await mailTo('jo@example.com')).raw);
    expect(secondLink).not.toBe(firstLink);
    expect((await fetch(firstLink)).status).toBe(410);
    expect((await fetch(secondLink)).status).toBe(200);

    const taken = await c.call(ADMIN, 'POST', '/api/accounts', { email: 'JO@example.com', name: 'Jo again' });
    expect(taken).toMatchObject({ status: 409, body: { message: 'An account with the email jo@example.com exists already.' } });
    const bad = await c.call(ADMIN, 'POST', '/api/accounts', { email: 'not an email', name: '', role: 'OWNER' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toMatchObject({ email: 'Email is not a valid email address.', name: 'Name is required.', role: 'Role must be one of NONE, USER, ADMIN.' });
    expect((await c.call(USER, 'GET', '/api/accounts')).status).toBe(403);
    expect((await c.call(USER, 'POST', '/api/accounts', { email: 'x@example.com', name: 'X' })).status).toBe(403);
    const ines = (await c.call(ADMIN, 'GET', '/api/accounts?search=ines')).body.items[0];
    const chosen = await c.call(ADMIN, 'POST', `/api/accounts/${ines.id}/invitation`);
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(409);
    expect(chosen.body.message).toBe('ines@example.com has chosen a password already: there is nothing to invite them to.');
  });

  it('disabling stops the access token, the refresh token and an API token at once; enabling lets the person in again', async () => {
    const kim = await colleague('kim@example.com');
    const apiToken = (await (await c.api('/api/api-tokens', { method: 'POST', token: kim.access_token, json: { name: 'script', scope: 'READ' } })).json()).secret as string;
    expect((await me(apiToken)).status).toBe(200);
    // An open page's live socket, and someone else's.
    const kimsPage = await openLive(c.url, kim.access_token);
    const othersPage = await openLive(c.url, await c.token(ADMIN));

    const disabled = await c.call(ADMIN, 'PUT', `/api/accounts/${kim.id}`, { disabled: true });
    expect(disabled).toMatchObject({ status: 200, body: { disabled: true } });
    expect(await kimsPage.closed).toEqual({ code: LiveClose.Unauthorized, reason: ACCOUNT_GONE });
    expect(await Promise.race([othersPage.closed, new Promise((resolve) => setTimeout(() => resolve('open'), 300))])).toBe('open');
    othersPage.close();
    for (const token of [kim.access_token, apiToken]) {
      const res = await me(token);
      expect(res.status).toBe(401);
      expect((await res.json()).message).toBe(ACCOUNT_GONE);
    }
    const refreshed = await refreshWith(c.url, kim.refresh_token!);
    expect(refreshed.status).toBe(400);
    expect((await refreshed.json()).error).toBe('invalid_grant');
    await expect(passwordLogin({ consoleUrl: c.url, email: 'kim@example.com', password: GOOD_PASSWORD })).rejects.toThrow();

    expect((await c.call(ADMIN, 'PUT', `/api/accounts/${kim.id}`, { disabled: false, role: 'ADMIN', name: 'Kim Admin' })).body).toMatchObject({ disabled: false, role: 'ADMIN', name: 'Kim Admin' });
    const back = await passwordLogin({ consoleUrl: c.url, email: 'kim@example.com', password: GOOD_PASSWORD });
    expect(await (await me(back.access_token)).json()).toMatchObject({ roles: ['USER', 'ADMIN'], name: 'Kim Admin' });
    expect(await auditOf(['account.update'])).toEqual(
      expect.arrayContaining([{ kind: 'account.update', username: ADMIN, details: { accountId: kim.id, email: 'kim@example.com', disabled: true }, outcome: 'ok' }]),
    );
  });

  it('deletes an account: its token stops, the audit trail keeps its email; nobody disables, demotes or deletes themselves', async () => {
    const lee = await colleague('lee@example.com');
    const adminId = (await c.call(ADMIN, 'GET', '/api/accounts?search=admin@fleetlink')).body.items[0].id;
    for (const change of [{ disabled: true }, { role: 'USER' }]) {
      const refused = await c.call(ADMIN, 'PUT', `/api/accounts/${adminId}`, change);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/^You cannot (disable|demote) your own account: ask another administrator\.$/);
    }
    expect((await c.call(ADMIN, 'DELETE', `/api/accounts/${adminId}`)).body.message).toBe('You cannot delete your own account: ask another administrator.');

    expect((await c.call(ADMIN, 'DELETE', `/api/accounts/${lee.id}`)).status).toBe(204);
    expect((await me(lee.access_token)).status).toBe(401);
    expect(await c.database.db.select().from(idpAccounts).where(eq(idpAccounts.id, lee.id))).toEqual([]);
    expect((await c.call(ADMIN, 'DELETE', `/api/accounts/${lee.id}`)).status).toBe(404);
    expect(await auditOf(['account.delete'])).toEqual([{ kind: 'account.delete', username: ADMIN, details: { accountId: lee.id, email: 'lee@example.com' }, outcome: 'ok' }]);
  });

  it('"Forgot password?" mails a one-hour link for an account, says the same for an unknown email, and is limited', async () => {
    await colleague('rae@example.com');
    const forgot = async (email: string) => {
      const res = await fetch(`${c.url}${FORGOT_PAGE_PATH}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email }) });
      return { status: res.status, text: await res.text() };
    };
    const signInPage = await (await fetch(`${c.url}${FORGOT_PAGE_PATH}`)).text();
    expect(signInPage).toContain('We mail you a link to choose a new one.');

    const asked = await forgot('Rae@Example.com ');
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('If an account has the email Rae@Example.com, a link to choose a new password is on its way. It works for one hour.');
    await expect.poll(() => sink.mails.filter((m) => m.to.includes('rae@example.com') && /^Subject: Choose a new Fleetlink password$/m.test(m.raw)).length, { timeout: 10_000 }).toBe(1);
    const link = passwordLinkIn(sink.mails.at(-1)!.raw);
    const [stored] = await c.database.db.select().from(idpAccountLinks).where(eq(idpAccountLinks.purpose, 'reset'));
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBeGreaterThan(59 * 60_000);
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBeLessThanOrEqual(60 * 60_000 + 1000);
    expect((await choosePassword(link, 'a brand new passphrase')).status).toBe(200);
    await expect(passwordLogin({ consoleUrl: c.url, email: 'rae@example.com', password: GOOD_PASSWORD })).rejects.toThrow('invalid email or password');
    await passwordLogin({ consoleUrl: c.url, email: 'rae@example.com', password: 'a brand new passphrase' });

    // Nobody has this email: the same answer, no mail, and the audit trail says so.
    const mailsBefore = sink.mails.length;
    const unknown = await forgot('nobody@example.com');
    expect(unknown.text).toContain('If an account has the email nobody@example.com, a link');
    await expect.poll(async () => (await auditOf(['account.reset-request'])).filter((e) => e.username === 'nobody@example.com').length).toBe(1);
    expect(sink.mails.length).toBe(mailsBefore);
    // Three an hour for one email: the fourth and later mail nothing.
    for (let i = 0; i < 4; i++) await forgot('rae@example.com');
    await expect.poll(async () => (await auditOf(['account.reset-request'])).filter((e) => e.username === 'rae@example.com').length).toBe(5);
    expect(sink.mails.filter((m) => m.to.includes('rae@example.com') && /Choose a new Fleetlink password/.test(m.raw)).length).toBe(3);
    expect((await forgot('')).status).toBe(400);
  });

  it("an organization's manager adds a member without an account and invites them: they sign in to a membership that waited", async () => {
    const org = (await c.call(USER, 'POST', '/api/organization', { type: 'COMPANY', name: 'Waiting Co', country: 'NL', address: 'Dam 1, Amsterdam', email: 'office@waiting.example' })).body.id;
    const added = await c.call(USER, 'POST', `/api/organization/${org}/user`, { email: 'nia@example.com', role: 'USER' });
    expect(added).toMatchObject({ status: 201, body: { email: 'nia@example.com', invitable: true } });
    expect((await c.call(USER, 'POST', `/api/organization/${org}/user`, { email: ADMIN, role: 'USER' })).body.invitable).toBe(false);
    // Only the organization's managers invite its members.
    expect((await c.call(ADMIN, 'POST', `/api/organization/${org}/user/${added.body.id}/invitation`)).status).toBe(403);

    const invited = await c.call(USER, 'POST', `/api/organization/${org}/user/${added.body.id}/invitation`);
    // A member's link goes to them by mail only: whoever holds it holds the email's memberships.
    expect(invited).toMatchObject({ status: 200, body: { mailed: true, link: null, account: { email: 'nia@example.com', role: 'USER', invited: true } } });
    expect((await choosePassword(passwordLinkIn((await mailTo('nia@example.com')).raw), GOOD_PASSWORD)).status).toBe(200);
    const nia = await passwordLogin({ consoleUrl: c.url, email: 'nia@example.com', password: GOOD_PASSWORD });
    const theirs = (await (await c.api('/api/organizations', { token: nia.access_token })).json()) as { name: string }[];
    expect(theirs.map((o) => o.name)).toContain('Waiting Co');
    const again = await c.call(USER, 'POST', `/api/organization/${org}/user/${added.body.id}/invitation`);
    expect(again).toMatchObject({ status: 409, body: { message: 'nia@example.com has an account already: they see the organization when they sign in.' } });
  });

  it("an organization's manager sends at most 20 member invitations an hour", async () => {
    const manager = await colleague('manager@example.com');
    const as = (method: string, pathname: string, json?: unknown) => c.api(pathname, { method, token: manager.access_token, json }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const org = (await as('POST', '/api/organization', { type: 'COMPANY', name: 'Flood Co', country: 'NL', address: 'Dam 1, Amsterdam', email: 'office@flood.example' })).body.id;
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const member = await as('POST', `/api/organization/${org}/user`, { email: `flood${i}@example.com`, role: 'USER' });
      const invited = await as('POST', `/api/organization/${org}/user/${member.body.id}/invitation`);
      statuses.push(invited.status);
      if (invited.status === 429) expect(invited.body.message).toBe('You sent 20 invitations in the last hour: try again later, or ask a Fleetlink administrator.');
    }
    expect(statuses).toEqual([...Array(20).fill(200), 429]);
  });

  it('a person changes their own name, and their password with the current one (tries limited)', async () => {
    const sam = await colleague('sam@example.com');
    const mine = (json?: unknown) => c.api('/api/account', { method: json ? 'PUT' : 'GET', token: sam.access_token, json }).then(async (r) => ({ status: r.status, body: await r.json() }));
    expect((await mine()).body).toMatchObject({ email: 'sam@example.com', name: 'Name of sam@example.com' });
    expect((await mine({ name: 'Sam Sample' })).body.name).toBe('Sam Sample');
    expect((await mine({ newPassword: 'a fresh passphrase' })).body.fields).toEqual({ currentPassword: 'The current password is not right.' });
    expect((await mine({ currentPassword: GOOD_PASSWORD, newPassword: 'short' })).body.fields).toEqual({ newPassword: 'The password must be at least 12 characters.' });
    const changed = await mine({ currentPassword: GOOD_PASSWORD, newPassword: 'a fresh passphrase' });
    expect(changed.status).toBe(200);
    await passwordLogin({ consoleUrl: c.url, email: 'sam@example.com', password: 'a fresh passphrase' });
    // The current password typed there is a guess too: ten tries in 15 minutes (two so far: the
    // short one was refused by the form's rules before any was counted).
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await mine({ currentPassword: 'wrong guess', newPassword: 'another fresh one' })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 400, 400, 429]);
    expect(await auditOf(['account.password-set'])).toEqual(expect.arrayContaining([{ kind: 'account.password-set', username: 'sam@example.com', details: { accountId: sam.id, email: 'sam@example.com', by: 'self' }, outcome: 'ok' }]));
  });

  it('without SMTP_URL hands the link over in the answer, and says why it was not mailed', async () => {
    const plain = await startTestConsole();
    try {
      const res = await plain.call(ADMIN, 'POST', '/api/accounts', { email: 'max@example.com', name: 'Max' });
      expect(res.status).toBe(201);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toMatchObject({ mailed: false, mailError: 'The console cannot send mail: the operator has not set SMTP_URL.' });
      expect(res.body.link).toMatch(new RegExp(`^${plain.url}/idp/account/password\\?token=[A-Za-z0-9_-]{43}$`));
      expect((await choosePassword(res.body.link, GOOD_PASSWORD)).status).toBe(200);
      await passwordLogin({ consoleUrl: plain.url, email: 'max@example.com', password: GOOD_PASSWORD });
      // A member's invitation is mailed or nothing for an organization's manager; a realm ADMIN gets the link.
      const org = (await plain.call(USER, 'POST', '/api/organization', { type: 'COMPANY', name: 'No Mail Co', country: 'NL', address: 'Dam 1, Amsterdam', email: 'office@nomail.example' })).body.id;
      const member = (await plain.call(USER, 'POST', `/api/organization/${org}/user`, { email: 'ode@example.com', role: 'USER' })).body;
      const refused = await plain.call(USER, 'POST', `/api/organization/${org}/user/${member.id}/invitation`);
      expect(refused).toMatchObject({ status: 409, body: { message: 'This console cannot send mail: ask a Fleetlink administrator to invite them on Manage → People.' } });
      await plain.call(USER, 'POST', `/api/organization/${org}/user`, { email: ADMIN, role: 'ADMIN' });
      const byAdmin = await plain.call(ADMIN, 'POST', `/api/organization/${org}/user/${member.id}/invitation`);
      expect(byAdmin.body.link).toMatch(/\/idp\/account\/password\?token=/);
      // Nor can a reset link be mailed: the page says whom to ask.
      expect(await (await fetch(`${plain.url}${FORGOT_PAGE_PATH}`)).text()).toContain('This console cannot send mail. Ask your Fleetlink administrator to help you in.');
    } finally {
      await plain.close();
    }
  });

  // Two consoles on one PostgreSQL: a disable on one stops the person's token on the other at once.
  it.skipIf(!process.env.TEST_DATABASE_URL)('a disable on one console holds on the other at once', async () => {
    // The same database, its secrets' key and public URL (the issuer its tokens name).
    const key = readFileSync(path.join(c.dataDir, SECRET_KEY_FILE), 'utf8').trim();
    const other = await startTestConsole({ DATABASE_URL: c.env.DATABASE_URL!, PUBLIC_URL: c.env.PUBLIC_URL, SECRET_KEY: key });
    try {
      const pat = await colleague('pat@example.com');
      // The other console has seen Pat's token pass: it remembers the account as active.
      expect((await other.api('/api/me', { token: pat.access_token })).status).toBe(200);
      await c.call(ADMIN, 'PUT', `/api/accounts/${pat.id}`, { disabled: true });
      await expect.poll(async () => (await other.api('/api/me', { token: pat.access_token })).status, { timeout: 2000, interval: 50 }).toBe(401);
    } finally {
      await other.close();
    }
  });
});
