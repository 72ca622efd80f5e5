import { captchaMessages, type ContactMessageList } from '@fleetlink/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleSecrets, contactMessages } from '../../db/schema/index.js';
import { parseEnv } from '../../env.js';
import { startSmtpSink, type SmtpSink } from '../../testing/smtp-sink.js';
import { startTestConsole, type TestConsole } from '../../testing/test-console.js';
import { signedChallenge, solveCaptcha } from './captcha.test-support.js';

const ADMIN = 'admin@fleetlink.local';
const USER = 'user@fleetlink.local';
const GUEST = 'guest@fleetlink.local';
// One attempt costs one PBKDF2 round here, so a test solves a challenge in milliseconds.
const FAST_CAPTCHA = { CAPTCHA_COST: '1' };

/** A console, its accounts' tokens, and the calls of a person filling in /contact. */
async function contactConsole(env: Record<string, string> = {}) {
  const c = await startTestConsole({ ...FAST_CAPTCHA, ...env });
  const call = c.call;
  const solved = async (who: string) => solveCaptcha((await call(who, 'GET', '/api/contact/challenge')).body);
  const send = async (who: string, form: Record<string, unknown> = {}) =>
    call(who, 'POST', '/api/contact', { name: 'Ann Example', email: 'ann@example.com', message: 'Hello operator', captcha: await solved(who), ...form });
  const list = async () => (await call(ADMIN, 'GET', '/api/contact/messages')).body as ContactMessageList;
  return { c, call, solved, send, list };
}

describe('contact form', () => {
  let t: Awaited<ReturnType<typeof contactConsole>>;
  beforeAll(async () => {
    // Limits out of the way: this suite sends more than an hour's worth (they have their own suite).
    t = await contactConsole({ CONTACT_RATE_LIMIT_USER: '100', CONTACT_RATE_LIMIT_ADDRESS: '100' });
  });
  afterAll(() => t?.c.close());

  it('needs a sign-in, and no realm role, to get a challenge and to send', async () => {
    expect((await t.call(undefined, 'GET', '/api/contact/challenge')).status).toBe(401);
    expect((await t.call(undefined, 'POST', '/api/contact', {})).status).toBe(401);
    const challenge = await t.call(GUEST, 'GET', '/api/contact/challenge');
    expect(challenge.status).toBe(200);
    expect(challenge.headers.get('cache-control')).toBe('no-store');
    expect(challenge.body.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', cost: 1 });
    expect(challenge.body.parameters.expiresAt * 1000).toBeGreaterThan(Date.now() + 9 * 60_000);
    expect(challenge.body.signature).toMatch(/^[0-9a-f]{64}$/);
    expect((await t.send(GUEST, { message: 'I have no role yet: who can give me one?' })).status).toBe(201);
  });

  it('answers SPEC §5 messages for each field', async () => {
    const empty = await t.call(USER, 'POST', '/api/contact', { name: '', email: '', message: ' ', captcha: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.fields).toEqual({
      name: 'Name is required.',
      email: 'Email is required.',
      message: 'Message is required.',
      captcha: 'CAPTCHA is required.',
    });
    const missing = await t.call(USER, 'POST', '/api/contact', {});
    expect(missing.body.fields).toMatchObject({ name: 'Name is required.', captcha: 'CAPTCHA is required.' });
    // A control character is refused before the form's rules are read (plugins/control-characters.ts).
    const nul = await t.call(USER, 'POST', '/api/contact', { name: 'x', email: 'a@example.com', message: 'a\u0000b', captcha: 'x' });
    expect(nul.body.fields).toEqual({ message: 'Message cannot contain control characters.' });
    const wrong = await t.call(USER, 'POST', '/api/contact', { name: 'x'.repeat(33), email: 'not-an-address', message: 'a b', captcha: 'x' });
    expect(wrong.body.fields).toMatchObject({
      name: 'Name must be less than 33 characters.',
      email: 'Email is not a valid email address.',
    });
    // 32 characters is the limit, not over it; a message keeps its lines.
    expect((await t.send(USER, { name: 'x'.repeat(32), message: 'line one\nline two\ttabbed' })).status).toBe(201);
  });

  it('accepts a solved challenge once, and refuses it the second time', async () => {
    const captcha = await t.solved(USER);
    const form = { name: 'Ann', email: 'ann@example.com', message: 'Once', captcha };
    expect((await t.call(USER, 'POST', '/api/contact', form)).status).toBe(201);
    const again = await t.call(USER, 'POST', '/api/contact', { ...form, message: 'Twice' });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ message: captchaMessages.used, fields: { captcha: captchaMessages.used } });
    expect((await t.list()).items.filter((m) => m.message === 'Twice')).toEqual([]);
  });

  it('refuses an expired challenge, a forged one, a tampered one and a made-up answer', async () => {
    const [{ value }] = await t.c.database.db.select().from(consoleSecrets).where(eq(consoleSecrets.name, 'captcha-hmac'));
    const secret = value as string;
    const post = async (captcha: string) => t.call(USER, 'POST', '/api/contact', { name: 'Eve', email: 'eve@example.com', message: 'Let me in', captcha });

    const expired = await post(await solveCaptcha(await signedChallenge(secret, new Date(Date.now() - 1000))));
    expect(expired).toMatchObject({ status: 400, body: { message: captchaMessages.expired } });

    const forged = await post(await solveCaptcha(await signedChallenge('a key that is not the console’s own key', new Date(Date.now() + 60_000))));
    expect(forged).toMatchObject({ status: 400, body: { message: captchaMessages.invalid } });

    // The console's own challenge, made cheaper by its solver: the signature no longer matches.
    const real = (await t.call(USER, 'GET', '/api/contact/challenge')).body;
    const cheaper = await solveCaptcha({ ...real, parameters: { ...real.parameters, keyPrefix: '00' } });
    expect(await post(cheaper)).toMatchObject({ status: 400, body: { message: captchaMessages.invalid } });

    const madeUp = Buffer.from(JSON.stringify({ challenge: real, solution: { counter: 1, derivedKey: 'ab'.repeat(32) } })).toString('base64');
    expect(await post(madeUp)).toMatchObject({ status: 400, body: { message: captchaMessages.invalid } });
    expect(await post('not base64 json at all')).toMatchObject({ status: 400, body: { fields: { captcha: captchaMessages.invalid } } });
    expect((await t.list()).items.filter((m) => m.name === 'Eve')).toEqual([]);
  });

  it('lists messages for realm ADMIN only, newest first, with who sent them and when', async () => {
    expect((await t.call(USER, 'GET', '/api/contact/messages')).status).toBe(403);
    const before = Date.now();
    await t.send(USER, { name: 'First', message: '<b>not bold</b> & <script>alert(1)</script>' });
    await t.send(ADMIN, { name: 'Second', email: 'admin@example.com' });
    const { items, total } = await t.list();
    expect(total).toBe(items.length);
    expect(items[0]).toMatchObject({ name: 'Second', email: 'admin@example.com', sentBy: ADMIN, mailStatus: 'NOT_CONFIGURED', mailError: null });
    expect(items[1]).toMatchObject({ name: 'First', sentBy: USER, message: '<b>not bold</b> & <script>alert(1)</script>' });
    expect(items[1].clientAddress).toBe('127.0.0.1');
    expect(Date.parse(items[1].createdAt)).toBeGreaterThanOrEqual(before - 1000);
    const times = items.map((m) => Date.parse(m.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});

describe('contact form rate limits', () => {
  let t: Awaited<ReturnType<typeof contactConsole>>;
  beforeAll(async () => {
    t = await contactConsole({ CONTACT_RATE_LIMIT_USER: '2', CONTACT_RATE_LIMIT_ADDRESS: '3' });
  });
  afterAll(() => t?.c.close());

  it('limits each account, then each address, with a clear 429', async () => {
    expect((await t.send(USER)).status).toBe(201);
    expect((await t.send(USER)).status).toBe(201);
    const third = await t.send(USER);
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ code: 'RATE_LIMITED', message: 'You have sent 2 messages in the last hour: try again in 60 minutes.' });
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(3500);
    // A form with a mistake is answered before the limit counts it.
    expect((await t.call(USER, 'POST', '/api/contact', {})).status).toBe(400);

    // Another account from the same address: its own limit is not reached, the address's is after one more.
    expect((await t.send(ADMIN)).status).toBe(201);
    const fromSameAddress = await t.send(ADMIN);
    expect(fromSameAddress.status).toBe(429);
    expect(fromSameAddress.body.message).toBe('Too many messages were sent from your network address: try again in 60 minutes.');
    expect((await t.list()).total).toBe(3);
  });
});

describe('contact form mail', () => {
  let sink: SmtpSink | undefined;
  let t: Awaited<ReturnType<typeof contactConsole>> | undefined;
  afterAll(async () => {
    await t?.c.close();
    await sink?.close();
  });

  it('says in one line what is wrong with the mail configuration', () => {
    expect(() => parseEnv({ SMTP_URL: 'smtp://127.0.0.1:25' })).toThrow(
      'Invalid configuration: CONTACT_TO: CONTACT_TO must be set when SMTP_URL is: it is where contact messages are mailed',
    );
    expect(() => parseEnv({ SMTP_URL: 'http://mail.example.com', CONTACT_TO: 'ops@example.com' })).toThrow(
      'Invalid configuration: SMTP_URL: SMTP_URL must start with smtp:// or smtps:// and name a host',
    );
    expect(() => parseEnv({ SMTP_URL: 'smtp://mail.example.com', CONTACT_TO: 'ops' })).toThrow('Invalid configuration: CONTACT_TO: CONTACT_TO must be an email address');
    expect(parseEnv({ PUBLIC_URL: 'https://console.example.com' }).CONTACT_FROM).toBe('Fleetlink <fleetlink@console.example.com>');
  });

  it('mails a message to CONTACT_TO through a real SMTP server, with the sender in Reply-To', async () => {
    sink = await startSmtpSink();
    t = await contactConsole({ SMTP_URL: `smtp://127.0.0.1:${sink.port}`, CONTACT_TO: 'ops@example.com', CONTACT_FROM: 'Fleetlink <console@example.com>' });
    const sent = await t.send(USER, { name: 'Ann Example', email: 'ann@example.com', message: 'Please call me back.\nThanks!' });
    expect(sent.status).toBe(201);
    await vi.waitFor(async () => expect((await t!.list()).items[0]).toMatchObject({ id: sent.body.id, mailStatus: 'SENT' }), { timeout: 10_000 });
    expect(sink.mails).toHaveLength(1);
    const [mail] = sink.mails;
    expect(mail.from).toBe('console@example.com');
    expect(mail.to).toEqual(['ops@example.com']);
    expect(mail.raw).toMatch(/^Reply-To: Ann Example <ann@example.com>$/m);
    expect(mail.raw).toMatch(/^Subject: Contact form: Ann Example$/m);
    expect(mail.raw).toContain('Account: user@fleetlink.local');
    expect(mail.raw).toContain('Please call me back.\r\nThanks!');
  });

  it('marks a message a stopped console left unconfirmed as not mailed, at the next start', async () => {
    const db = t!.c.database.db;
    const row = { name: 'Old', email: 'old@example.com', message: 'Left sending', senderSubject: 's', senderUsername: USER, mailStatus: 'SENDING' as const };
    const [old] = await db.insert(contactMessages).values({ ...row, createdAt: new Date(Date.now() - 11 * 60_000) }).returning();
    const [recent] = await db.insert(contactMessages).values({ ...row, message: 'Still on its way' }).returning();
    await t!.c.restart();
    const byId = new Map((await t!.list()).items.map((m) => [m.id, m]));
    expect(byId.get(old.id)).toMatchObject({ mailStatus: 'FAILED', mailError: 'The console stopped before the mail server confirmed it.' });
    expect(byId.get(recent.id)).toMatchObject({ mailStatus: 'SENDING', mailError: null });
  });

  it('keeps the message and logs why when the mail server refuses it', async () => {
    await t?.c.close();
    await sink?.close();
    sink = await startSmtpSink({ refuse: true });
    t = await contactConsole({ SMTP_URL: `smtp://127.0.0.1:${sink.port}`, CONTACT_TO: 'ops@example.com' });
    const logged = vi.spyOn(t.c.app.log, 'error');
    const sent = await t.send(USER, { message: 'Is anyone there?' });
    expect(sent.status).toBe(201);
    await vi.waitFor(async () => expect((await t!.list()).items[0]).toMatchObject({ id: sent.body.id, mailStatus: 'FAILED' }), { timeout: 10_000 });
    const [stored] = (await t.list()).items;
    expect(stored.message).toBe('Is anyone there?');
    expect(stored.mailError).toMatch(/^550 5\.7\.1 <ops@example.com>: Relay access denied/);
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ contactMessage: sent.body.id }),
      expect.stringMatching(/^The mail server did not take contact message .+: 550 5\.7\.1 .*Relay access denied.*\. The message is stored and listed on \/operator\.$/),
    );
    expect(sink.mails).toEqual([]);
  });
});
