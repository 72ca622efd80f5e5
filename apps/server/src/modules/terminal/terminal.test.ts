import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { agentTerminalUrl, AuditKind, RequestName, TerminalClose } from '@fleetlink/contract';
import { and, asc, eq, isNull, like } from 'drizzle-orm';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, terminalSessions } from '../../db/schema/index.js';
import {
  agentHome,
  createDevice,
  embeddedSetup,
  onlineMemberDevice,
  tearDown,
  waitFor,
  type AgentProcess,
  type MessagingSetup,
  type OnlineMemberDevice,
} from '../broker/broker.test-support.js';
import { DeviceCredentials } from '../enrollment/credentials.js';
import { TerminalSessionsRepository } from './terminal-sessions.repository.js';
import { openTerminal, type TerminalClient } from './terminal.test-support.js';
import { passwordLogin } from '../../idp/password-login.js';
import { choosePassword } from '../accounts/accounts.test-support.js';

const MB = 1024 * 1024;
const rssOf = (pid: number) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)![1]) * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Issue 63: the web terminal through the real console, the embedded broker and a real agent with a real pseudo-terminal. */
describe.skipIf(process.platform !== 'linux')('web terminal', () => {
  let s: MessagingSetup;
  let d: OnlineMemberDevice;
  const cleanup = { agents: [] as AgentProcess[], dirs: [] as string[] };
  const opened: TerminalClient[] = [];
  /** The terminal.open requests the console sent (the real ones go on to the agent). */
  const asked: { deviceId: string; url: string }[] = [];
  const terminal = async (...args: Parameters<typeof openTerminal> extends [string, ...infer R] ? R : never) => {
    const t = await openTerminal(s.tc.url, ...args);
    opened.push(t);
    return t;
  };
  const ready = (t: TerminalClient) => t.events.some((e) => e.type === 'ready');

  beforeAll(async () => {
    s = await embeddedSetup();
    d = await onlineMemberDevice(s, 'terminal device', cleanup);
    const hub = s.tc.messaging!.hub;
    const request = hub.request.bind(hub);
    hub.request = (deviceId, name, parameters, o) => {
      if (name === RequestName.OpenTerminal) asked.push({ deviceId, url: (parameters as { url: string }).url });
      return request(deviceId, name, parameters, o);
    };
  }, 60_000);

  afterAll(async () => {
    opened.forEach((t) => t.close());
    await tearDown(s, cleanup);
  });

  it('runs a shell on the device: echo, UTF-8 and colours come back as the shell printed them', async () => {
    const t = await terminal(d.device.id, d.admin);
    expect(t.events[0]).toMatchObject({ type: 'ready' });
    t.type('echo "h""i é ✓"; printf "\\033[31mred\\033[0m\\n"\r');
    await t.waitFor(/hi é ✓/);
    await t.waitFor(/\u001b\[31mred\u001b\[0m/);
    t.close();
  });

  it('starts the login shell in the home folder, and its size follows the page', async () => {
    const t = await terminal(d.device.id, d.admin, { cols: 100, rows: 30 });
    t.type('pwd; stty size\r');
    await t.waitFor(new RegExp(`${agentHome(cleanup.dirs[0]!)}\\s+30 100`));
    const from = t.mark();
    t.resize(132, 43);
    await sleep(100);
    t.type('stty size\r');
    await t.waitFor(/43 132/, 10_000, from);
    t.close();
  });

  it('Ctrl+C interrupts a running command; tab completion completes', async () => {
    const t = await terminal(d.device.id, d.admin);
    t.type('sleep 100\r');
    await sleep(500);
    const startedAt = Date.now();
    t.type('\u0003');
    t.type('echo after-"interrupt"\r');
    await t.waitFor(/after-interrupt/, 5000);
    expect(Date.now() - startedAt).toBeLessThan(5000);
    const from = t.mark();
    // /bin/sh may have no completion; the shell the test runs under is the agent user's $SHELL.
    t.type('echo /proc/self/stat\t\r');
    await t.waitFor(/\/proc\/self\/stat/, 5000, from);
    t.close();
  });

  it('exit ends the session with its reason, and the audit trail has who, where, how long and the bytes each way', async () => {
    const t = await terminal(d.device.id, d.admin);
    const sessionId = (t.events[0] as { sessionId: string }).sessionId;
    t.type('echo secret-typed-"word"\r');
    await t.waitFor(/secret-typed-word/);
    t.type('exit 3\r');
    expect(await t.closed).toEqual({ code: TerminalClose.Ended, reason: 'The shell exited with code 3.' });
    expect(t.events.at(-1)).toEqual({ type: 'end', reason: 'exit', message: 'The shell exited with code 3.' });
    await waitFor(async () => (await entries(sessionId)).length === 2, 5000, 'both audit entries');
    const [open, close] = await entries(sessionId);
    expect(open).toMatchObject({ kind: AuditKind.TerminalOpen, username: 'admin@fleetlink.local', deviceId: d.device.id, outcome: 'ok', clientAddress: '127.0.0.1' });
    expect(close).toMatchObject({ kind: AuditKind.TerminalClose, outcome: 'ok', details: { sessionId, reason: 'exit' } });
    const details = close!.details as { durationMs: number; bytesIn: number; bytesOut: number };
    expect(details.durationMs).toBeGreaterThan(0);
    expect(details.bytesIn).toBe('echo secret-typed-"word"\r'.length + 'exit 3\r'.length);
    expect(details.bytesOut).toBeGreaterThan(20);
    // Keystrokes are not recorded.
    expect(JSON.stringify([open, close])).not.toContain('secret');
  });

  const openSessions = async () =>
    (await s.tc.database.db.select().from(terminalSessions).where(and(eq(terminalSessions.deviceId, d.device.id), isNull(terminalSessions.endedAt)))).length;

  const entries = (sessionId: string) =>
    s.tc.database.db
      .select()
      .from(auditEntries)
      .where(and(like(auditEntries.kind, 'terminal.%'), eq(auditEntries.deviceId, d.device.id)))
      .orderBy(asc(auditEntries.time))
      .then((rows) => rows.filter((r) => (r.details as { sessionId?: string }).sessionId === sessionId));

  it('refuses another site, no token, a USER, a guest, and an administrator who is not a member, before the agent hears of it', async () => {
    const before = asked.length;
    await expect(terminal(d.device.id, d.admin, { origin: 'https://evil.example' })).rejects.toMatchObject({ status: 403 });
    await expect(terminal(d.device.id, d.admin, { origin: null })).rejects.toMatchObject({ status: 403, body: expect.stringContaining('Origin') });
    const none = await terminal(d.device.id, null, { hello: '{}' });
    expect(await none.closed).toMatchObject({ code: TerminalClose.Unauthorized });
    const forged = await terminal(d.device.id, `${d.admin.slice(0, -4)}AAAA`);
    expect(await forged.closed).toMatchObject({ code: TerminalClose.Unauthorized, reason: 'The access token is not valid.' });
    const user = await terminal(d.device.id, d.user);
    expect(await user.closed).toMatchObject({ code: TerminalClose.Forbidden, reason: 'Only administrators can open a terminal on a device.' });
    const guest = await terminal(d.device.id, d.guest);
    expect(await guest.closed).toMatchObject({ code: TerminalClose.Forbidden });
    // admin@ is ADMIN of the terminal device's organization, not of this one's.
    const foreign = await createDevice(s.tc.database.db, 'another organization’s device');
    const stranger = await terminal(foreign.id, d.admin);
    expect(await stranger.closed).toMatchObject({ code: TerminalClose.NotFound, reason: 'Device not found.' });
    expect([none, forged, user, guest, stranger].some(ready)).toBe(false);
    expect(asked.length).toBe(before);
    // Who tried is written down (a token that was not valid says nobody).
    // (Written beside the refusal, not before it: the entries may land a moment after the close.)
    const tried = async () =>
      (await s.tc.database.db.select().from(auditEntries).where(and(eq(auditEntries.kind, AuditKind.TerminalOpen), eq(auditEntries.outcome, 'error')))).map((e) => [
        e.username,
        e.deviceId,
        e.error,
      ]);
    await expect
      .poll(tried, { timeout: 5000 })
      .toEqual(
        expect.arrayContaining([
          ['user@fleetlink.local', d.device.id, 'Only administrators can open a terminal on a device.'],
          ['admin@fleetlink.local', foreign.id, 'Device not found.'],
        ]),
      );
  });

  it("takes the relay's token once, and only from the device it is for", async () => {
    const t = await terminal(d.device.id, d.admin);
    expect(ready(t)).toBe(true);
    const url = asked.at(-1)!.url;
    const credentials = await DeviceCredentials.open(s.tc.database.db, s.tc.box);
    const own = (await credentials.current(d.device.id))!;
    const relayStatus = (username: string, password: string, relative = url) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(`${s.tc.url.replace(/^http/, 'ws')}${relative}`, { headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` } });
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => {
          ws.close();
          resolve(101);
        });
        ws.on('error', () => resolve(-1));
      });
    // Used by the agent already.
    expect(await relayStatus(own.username, own.password)).toBe(403);
    expect(await relayStatus(own.username, 'wrong')).toBe(401);
    // A relay token nobody used yet: another device's account cannot take it; the device's own can, once.
    const other = await onlineMemberDevice(s, 'other terminal device', cleanup);
    const otherAccount = (await credentials.current(other.device.id))!;
    const token = randomBytes(32).toString('base64url');
    const sessionId = randomUUID();
    const repo = new TerminalSessionsRepository(s.tc.database.db);
    const row = { id: sessionId, deviceId: d.device.id, username: 'admin@fleetlink.local', relayExpiresAt: new Date(Date.now() + 60_000), peerUrl: s.tc.url };
    expect(await repo.open({ ...row, relayTokenHash: createHash('sha256').update(token).digest('hex') }, 10)).toBe('opened');
    const fresh = agentTerminalUrl(sessionId, token);
    expect(await relayStatus(otherAccount.username, otherAccount.password, fresh)).toBe(403);
    // No page waits for this session on any console: taken, then refused as unreachable.
    expect(await relayStatus(own.username, own.password, fresh)).toBe(502);
    expect(await relayStatus(own.username, own.password, fresh)).toBe(403);
    await repo.ended(sessionId);
    // The session itself still works.
    t.type('echo still-"here"\r');
    await t.waitFor(/still-here/);
    t.close();
  }, 60_000);

  it(`allows ${4} sessions per device at once; one more gets a clear 409`, async () => {
    // The sessions of the tests before have ended (their pages closed without waiting).
    await waitFor(async () => (await openSessions()) === 0, 5000, 'earlier sessions ended');
    const four = await Promise.all([1, 2, 3, 4].map(() => terminal(d.device.id, d.admin)));
    expect(four.every(ready)).toBe(true);
    const fifth = await terminal(d.device.id, d.admin);
    expect(await fifth.closed).toMatchObject({ code: TerminalClose.Conflict });
    expect(fifth.events.at(-1)).toMatchObject({ type: 'end', reason: 'refused', message: expect.stringContaining('already has 4 terminal sessions open') });
    four[0]!.close();
    // Its slot is free once the console has ended it.
    await waitFor(async () => {
      const again = await openTerminal(s.tc.url, d.device.id, d.admin);
      again.close();
      return ready(again);
    }, 5000, 'a free slot');
    four.forEach((t) => t.close());
  }, 30_000);

  it('a `yes` flood into a page that does not read stays bounded in the console and the agent', async () => {
    const t = await terminal(d.device.id, d.admin);
    const agentPid = await d.agent.workerPid();
    const consoleBefore = process.memoryUsage().rss;
    const agentBefore = rssOf(agentPid);
    t.type('yes\r');
    await t.waitFor(/y\r\ny\r\ny/);
    // The page stops reading: what the device prints must wait at the device, not in memory.
    t.ws.pause();
    await sleep(10_000);
    const consoleGrowth = process.memoryUsage().rss - consoleBefore;
    const agentGrowth = rssOf(agentPid) - agentBefore;
    t.ws.resume();
    console.log(`terminal flood, 10 s into a page that does not read: console RSS +${(consoleGrowth / MB).toFixed(1)} MB, agent RSS +${(agentGrowth / MB).toFixed(1)} MB`);
    expect(consoleGrowth).toBeLessThan(50 * MB);
    expect(agentGrowth).toBeLessThan(50 * MB);
    // Then it reads everything again, and the shell still answers Ctrl+C.
    t.type('\u0003');
    const from = t.mark();
    t.type('echo flood-"over"\r');
    await t.waitFor(/flood-over/, 20_000, from);
    t.close();
  }, 60_000);

  it("ends a person's open terminal at once when an ADMIN disables their account (issue 72)", async () => {
    // Kim: invited as a realm ADMIN (no mail here: the link is in the answer), an ADMIN of the device's organization.
    const invited = await (await s.tc.api('/api/accounts', { method: 'POST', token: d.admin, json: { email: 'kim@example.com', name: 'Kim', role: 'ADMIN' } })).json();
    expect((await choosePassword(invited.link, 'kim has a long password')).status).toBe(200);
    const member = await s.tc.api(`/api/organization/${d.device.organizationId}/user`, { method: 'POST', token: d.admin, json: { email: 'kim@example.com', role: 'ADMIN' } });
    expect(member.status).toBe(201);
    const kim = (await passwordLogin({ consoleUrl: s.tc.url, email: 'kim@example.com', password: 'kim has a long password' })).access_token;
    const t = await terminal(d.device.id, kim);
    await expect.poll(() => ready(t), { timeout: 10_000 }).toBe(true);
    expect((await s.tc.api(`/api/accounts/${invited.account.id}`, { method: 'PUT', token: d.admin, json: { disabled: true } })).status).toBe(200);
    expect(await t.closed).toMatchObject({ code: TerminalClose.Ended });
    expect(t.events.at(-1)).toMatchObject({ type: 'end', reason: 'account', message: 'Your account was disabled or deleted: ask your Fleetlink administrator.' });
  }, 30_000);

  it('ends the session when the device goes offline, and says so', async () => {
    const t = await terminal(d.device.id, d.admin);
    expect(t.events).toMatchObject([{ type: 'ready' }]);
    await d.agent.kill();
    expect(await t.closed).toMatchObject({ code: TerminalClose.Ended, reason: 'The device went offline.' });
    expect(t.events.at(-1)).toMatchObject({ type: 'end', reason: 'offline' });
    // And an offline device gets no new one.
    const late = await terminal(d.device.id, d.admin);
    expect(await late.closed).toMatchObject({ code: TerminalClose.Conflict });
    expect(late.events.at(-1)).toMatchObject({ message: 'The device is offline: a terminal opens only while its agent is connected.' });
  }, 30_000);
});

describe.skipIf(process.platform !== 'linux')('web terminal idle timeout', () => {
  let s: MessagingSetup;
  let d: OnlineMemberDevice;
  const cleanup = { agents: [] as AgentProcess[], dirs: [] as string[] };

  beforeAll(async () => {
    // 3 seconds.
    s = await embeddedSetup({ TERMINAL_IDLE_MINUTES: '0.05' });
    d = await onlineMemberDevice(s, 'idle terminal device', cleanup);
  }, 60_000);

  afterAll(() => tearDown(s, cleanup));

  it('ends a session nobody typed into for TERMINAL_IDLE_MINUTES, but not one in use', async () => {
    const t = await openTerminal(s.tc.url, d.device.id, d.admin);
    const startedAt = Date.now();
    // Typing keeps it open past the idle time.
    for (let i = 0; i < 5; i++) {
      await sleep(1000);
      t.type(' ');
    }
    expect(t.events.at(-1)).toMatchObject({ type: 'ready' });
    const closed = await t.closed;
    expect(Date.now() - startedAt).toBeGreaterThan(7000);
    expect(closed.code).toBe(TerminalClose.Ended);
    expect(t.events.at(-1)).toMatchObject({ type: 'end', reason: 'idle' });
  }, 30_000);
});
