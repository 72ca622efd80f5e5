import { auditPageSchema, type AuditEntry } from '@fleetlink/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceServers } from '../../db/schema/index.js';
import { passwordLogin } from '../../idp/password-login.js';
import {
  ADMIN_EMAIL,
  GUEST_EMAIL,
  embeddedSetup,
  memberDevice,
  runAgentOnline,
  USER_EMAIL,
  type AgentProcess,
  type MessagingSetup,
} from '../broker/broker.test-support.js';
import { startLocalDnsServer } from '../organizations/local-dns-server.test-support.js';

const PROXY_HOST = 'proxy.fleetlink.test';
const HOSTILE = '=HYPERLINK("http://evil.example","click")';

/**
 * Issue 25: every state-changing action leaves exactly one entry (a failed one too) with the right
 * actor, target and outcome; the table refuses to change; each reader sees what they may.
 */
describe('audit trail', () => {
  let s: MessagingSetup;
  let dns: Awaited<ReturnType<typeof startLocalDnsServer>>;
  const agents: AgentProcess[] = [];
  const dirs: string[] = [];
  let userOrg: string;

  const call = (who: string | undefined, method: string, path: string, json?: unknown) => s.tc.call(who, method, `/api${path}`, json);
  const page = async (query = '', path = '/audit', who = ADMIN_EMAIL) => {
    const res = await call(who, 'GET', `${path}${query ? `?${query}` : ''}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return auditPageSchema.parse(res.body);
  };
  const newestId = async () => BigInt((await page('size=1')).entries[0]?.id ?? 0);
  /** The entries an action left (nothing else happens meanwhile: the suite runs its steps in order). */
  const one = async (action: () => Promise<unknown>): Promise<AuditEntry> => {
    const before = await newestId();
    const result = await action();
    const left = (await page('size=200')).entries.filter((e) => BigInt(e.id) > before);
    expect(left, `the action answered ${JSON.stringify(result)}`).toHaveLength(1);
    return left[0]!;
  };
  const actor = (email: string) => ({ username: email, subject: expect.any(String), clientAddress: '127.0.0.1' });

  beforeAll(async () => {
    dns = await startLocalDnsServer();
    s = await embeddedSetup({ TUNNEL_PROXY_HOST: PROXY_HOST, DNS_SERVERS: dns.address });
    await s.tc.signIn(ADMIN_EMAIL, USER_EMAIL, GUEST_EMAIL);
    userOrg = (await call(USER_EMAIL, 'GET', '/organizations')).body[0].id;
  });
  afterAll(async () => {
    for (const a of agents) await a.kill();
    await s?.tc.close();
    await s?.dispose();
    await dns?.close();
  });

  it('records device create, edit and delete with who, which device and what changed', async () => {
    const form = { organization: userOrg, name: 'press 1', branch: 'PRODUCTION', tags: ['hall'] };
    let id = '';
    const created = await one(async () => (id = (await call(USER_EMAIL, 'POST', '/device', form)).body.id));
    expect(created).toMatchObject({
      kind: 'device.create',
      ...actor(USER_EMAIL),
      device: { id, name: 'press 1' },
      organization: { id: userOrg },
      details: { name: 'press 1', branch: 'PRODUCTION', tags: ['hall'] },
      outcome: 'ok',
      error: null,
    });
    expect(Date.now() - Date.parse(created.time)).toBeLessThan(60_000);

    const edited = await one(() => call(USER_EMAIL, 'PUT', `/device/${id}`, { ...form, name: 'press 2' }));
    expect(edited).toMatchObject({ kind: 'device.update', device: { id, name: 'press 2' }, details: { changes: { name: ['press 1', 'press 2'] } }, outcome: 'ok' });

    // Refused: the guest is not a member. Still one entry, with the answer the guest got.
    const refused = await one(() => call(ADMIN_EMAIL, 'DELETE', `/device/${id}`));
    expect(refused).toMatchObject({ kind: 'device.delete', ...actor(ADMIN_EMAIL), device: { id, name: 'press 2' }, outcome: 'error', error: 'Device not found.' });

    const deleted = await one(() => call(USER_EMAIL, 'DELETE', `/device/${id}`));
    // The device is gone; its entries keep the name it had.
    expect(deleted).toMatchObject({ kind: 'device.delete', device: { id, name: 'press 2' }, organization: { id: userOrg }, outcome: 'ok' });
    const history = await page(`device=${id}`);
    expect(history.entries.map((e) => e.kind)).toEqual(['device.delete', 'device.delete', 'device.update', 'device.create']);
    expect((await page('device=PRESS 2')).entries).toHaveLength(3);
  });

  it('records a command with its name, parameters and exit code, and a failed one with its error', async () => {
    const device = await memberDevice(s.tc.database.db, 'audited');
    const run = (token: string) =>
      call(token, 'POST', `/device/${device.id}/command`, { name: 'execute', parameters: [{ name: 'command', value: 'exit 3' }] });
    const offline = await one(() => run(ADMIN_EMAIL));
    expect(offline).toMatchObject({ kind: 'command', outcome: 'error', error: expect.stringContaining('offline'), device: { id: device.id, name: 'audited' } });

    const wrongKey = await one(() => call(undefined, 'POST', '/agent/enroll', { deviceId: device.id, key: 'not-the-key' }));
    expect(wrongKey).toMatchObject({ kind: 'device.enroll', username: null, clientAddress: '127.0.0.1', device: { id: device.id, name: 'audited' }, outcome: 'error' });
    expect(wrongKey.error).toContain('The installation key is not valid for this device.');
    const enrolled = await one(async () => agents.push(await runAgentOnline(s.tc, device, { agents: [], dirs })));
    expect(enrolled).toMatchObject({ kind: 'device.enroll', username: null, device: { id: device.id }, organization: { id: device.organizationId }, outcome: 'ok' });
    expect(JSON.stringify(enrolled)).not.toContain(device.key);
    const ran = await one(() => run(ADMIN_EMAIL));
    expect(ran).toMatchObject({
      kind: 'command',
      ...actor(ADMIN_EMAIL),
      device: { id: device.id, name: 'audited' },
      organization: { id: device.organizationId },
      details: { name: 'execute', parameters: { command: 'exit 3' }, exitCode: 3, durationMs: expect.any(Number) },
      outcome: 'ok',
    });
    // Kept in the order written (json, not jsonb), which is the order they read best.
    expect(Object.keys(ran.details)).toEqual(['name', 'parameters', 'exitCode', 'durationMs']);
    const forbidden = await one(() => run(USER_EMAIL));
    expect(forbidden).toMatchObject({ kind: 'command', ...actor(USER_EMAIL), outcome: 'error', error: "Only administrators can run the command 'execute'." });

    const reset = await one(() => call(ADMIN_EMAIL, 'POST', `/device/${device.id}/installation-key`));
    expect(reset).toMatchObject({ kind: 'device.key-reset', device: { id: device.id }, outcome: 'ok' });
    expect(JSON.stringify(reset)).not.toContain((await call(ADMIN_EMAIL, 'GET', `/device/${device.id}`)).body.installationId);
  });

  it('records organization, member and domain changes', async () => {
    const form = { type: 'COMPANY', name: 'Audit BV', country: 'NL', address: 'Dam 1', email: 'office@audit.example', vat: 'NL1' };
    let org = '';
    const created = await one(async () => (org = (await call(USER_EMAIL, 'POST', '/organization', form)).body.id));
    expect(created).toMatchObject({ kind: 'organization.create', organization: { id: org, name: 'Audit BV' }, outcome: 'ok' });
    const edited = await one(() => call(USER_EMAIL, 'PUT', `/organization/${org}`, { ...form, name: 'Audit NV' }));
    expect(edited).toMatchObject({ kind: 'organization.update', organization: { name: 'Audit NV' }, details: { changes: { name: ['Audit BV', 'Audit NV'] } } });

    let memberId = '';
    const added = await one(async () => (memberId = (await call(USER_EMAIL, 'POST', `/organization/${org}/user`, { email: GUEST_EMAIL, role: 'USER' })).body.id));
    expect(added).toMatchObject({ kind: 'member.add', organization: { id: org }, details: { email: GUEST_EMAIL, role: 'USER' }, outcome: 'ok' });
    const twice = await one(() => call(USER_EMAIL, 'POST', `/organization/${org}/user`, { email: GUEST_EMAIL, role: 'USER' }));
    expect(twice).toMatchObject({ kind: 'member.add', outcome: 'error', error: `${GUEST_EMAIL} is already a member of this organization.` });
    const removed = await one(() => call(USER_EMAIL, 'DELETE', `/organization/${org}/user/${memberId}`));
    expect(removed).toMatchObject({ kind: 'member.remove', details: { email: GUEST_EMAIL, role: 'USER' }, outcome: 'ok' });

    let domainId = '';
    const domain = await one(async () => (domainId = (await call(USER_EMAIL, 'POST', `/organization/${org}/domain`, { domain: 'audit.example' })).body.id));
    expect(domain).toMatchObject({ kind: 'domain.add', details: { domain: 'audit.example', status: expect.any(String) }, outcome: 'ok' });
    const revoked = await one(() => call(USER_EMAIL, 'DELETE', `/organization/${org}/domain/${domainId}`));
    expect(revoked).toMatchObject({ kind: 'domain.remove', details: { domain: 'audit.example' }, outcome: 'ok' });

    const deleted = await one(() => call(USER_EMAIL, 'DELETE', `/organization/${org}`));
    expect(deleted).toMatchObject({ kind: 'organization.delete', organization: { id: org, name: 'Audit NV' }, outcome: 'ok' });
  });

  it('records server changes, reloads, migrations and the reindex, never a server password', async () => {
    const proxy = { type: 'PROXY', url: 'ssh://proxy-a.example:2222', maxCapacity: 10, status: 'ONLINE', hostKey: 'ssh-ed25519 AAAA', password: 'hunter2-secret' };
    let a = '';
    const created = await one(async () => {
      const res = await call(ADMIN_EMAIL, 'POST', '/server', proxy);
      a = res.body.id;
      return res.body;
    });
    expect(created).toMatchObject({ kind: 'server.create', ...actor(ADMIN_EMAIL), details: { serverId: a, type: 'PROXY', url: proxy.url }, outcome: 'ok' });
    const edited = await one(() => call(ADMIN_EMAIL, 'PUT', `/server/${a}`, { ...proxy, maxCapacity: 20 }));
    expect(edited).toMatchObject({ kind: 'server.update', details: { serverId: a, maxCapacity: 20 } });
    for (const e of [created, edited]) expect(JSON.stringify(e)).not.toContain('hunter2');

    const b = (await call(ADMIN_EMAIL, 'POST', '/server', { ...proxy, url: 'ssh://proxy-b.example:2222' })).body.id;
    const device = await memberDevice(s.tc.database.db, 'moving');
    await s.tc.database.db.insert(deviceServers).values({ deviceId: device.id, serverId: a });
    const moved = await one(() => call(ADMIN_EMAIL, 'POST', `/server-migrate/${device.id}/${a}/${b}`));
    expect(moved).toMatchObject({ kind: 'device.migrate', device: { id: device.id, name: 'moving' }, details: { fromServerId: a, toServerId: b }, outcome: 'ok' });
    const wrong = await one(() => call(ADMIN_EMAIL, 'POST', `/server-migrate/${device.id}/${a}/${b}`));
    expect(wrong).toMatchObject({ kind: 'device.migrate', outcome: 'error', error: 'The device is not assigned to this server.' });

    const deleted = await one(() => call(ADMIN_EMAIL, 'DELETE', `/server/${a}`));
    expect(deleted).toMatchObject({ kind: 'server.delete', details: { serverId: a, type: 'PROXY', url: proxy.url }, outcome: 'ok' });
    const reload = await one(() => call(ADMIN_EMAIL, 'GET', '/servers-reload'));
    expect(reload).toMatchObject({ kind: 'servers.reload', details: { connections: expect.any(Number) }, outcome: 'ok' });
    const reindex = await one(() => call(ADMIN_EMAIL, 'GET', '/devices-search-reindex'));
    expect(reindex).toMatchObject({ kind: 'devices.reindex', details: { indexed: expect.any(Number) }, outcome: 'ok' });
  });

  it('records sign-ins and failed sign-ins at the built-in provider with the client address', async () => {
    const ok = await one(() => passwordLogin({ consoleUrl: s.tc.url, email: USER_EMAIL, password: 'user' }));
    expect(ok).toMatchObject({ kind: 'sign-in', username: USER_EMAIL, subject: expect.any(String), clientAddress: '127.0.0.1', outcome: 'ok' });
    const failed = await one(() => passwordLogin({ consoleUrl: s.tc.url, email: 'Admin@Fleetlink.local', password: 'wrong' }).catch(() => {}));
    expect(failed).toMatchObject({ kind: 'sign-in', username: ADMIN_EMAIL, subject: null, clientAddress: '127.0.0.1', outcome: 'error', error: 'Invalid email or password.' });
    expect(JSON.stringify(failed)).not.toContain('wrong');
  });

  it('is append-only: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    const db = s.tc.database.db;
    const count = async () => Number((await db.execute(sql`select count(*)::int as n from audit_entries`)).rows[0]!.n);
    const before = await count();
    expect(before).toBeGreaterThan(10);
    // drizzle wraps the database's error; its cause is what PostgreSQL said.
    const refusal = (statement: ReturnType<typeof sql>) =>
      db.execute(statement).then(
        () => 'accepted',
        (err: Error) => String((err.cause as Error | undefined)?.message ?? err.message),
      );
    expect(await refusal(sql`update audit_entries set kind = 'device.create'`)).toBe('audit entries are append-only: UPDATE is not allowed');
    expect(await refusal(sql`delete from audit_entries where id = (select max(id) from audit_entries)`)).toBe('audit entries are append-only: DELETE is not allowed');
    expect(await refusal(sql`truncate audit_entries`)).toBe('audit entries are append-only: TRUNCATE is not allowed');
    expect(await count()).toBe(before);
  });

  it('shows all of it to realm ADMIN only, and an organization’s entries to its CREATOR and ADMIN', async () => {
    expect((await call(undefined, 'GET', '/audit')).status).toBe(401);
    expect((await call(USER_EMAIL, 'GET', '/audit')).status).toBe(403);
    expect((await call(GUEST_EMAIL, 'GET', '/audit')).status).toBe(403);
    expect((await call(USER_EMAIL, 'GET', '/audit/export')).status).toBe(403);

    // user@ created userOrg; admin@ becomes its ADMIN, guest@ a USER member.
    await call(USER_EMAIL, 'POST', `/organization/${userOrg}/user`, { email: ADMIN_EMAIL, role: 'ADMIN' });
    const mine = await page('', `/organization/${userOrg}/audit`, USER_EMAIL);
    expect(mine.entries.length).toBeGreaterThan(3);
    expect(mine.entries.every((e) => e.organization?.id === userOrg)).toBe(true);
    expect((await page('', `/organization/${userOrg}/audit`, ADMIN_EMAIL)).entries).toEqual(mine.entries);

    const other = await memberDevice(s.tc.database.db, 'elsewhere'); // admin@ ADMIN, user@ USER there
    expect((await call(USER_EMAIL, 'GET', `/organization/${other.organizationId}/audit`)).status).toBe(403);
    expect((await call(USER_EMAIL, 'GET', `/organization/${other.organizationId}/audit/export`)).status).toBe(403);
    expect((await call(GUEST_EMAIL, 'GET', `/organization/${other.organizationId}/audit`)).status).toBe(403); // no USER realm role
    const stranger = await call(ADMIN_EMAIL, 'GET', `/organization/${(await call(USER_EMAIL, 'GET', '/organizations')).body.find((o: { type: string }) => o.type === 'PERSONAL').id}/audit`);
    expect(stranger.status).toBe(200); // admin@ is now an ADMIN of userOrg
    const personalOfAdmin = (await call(ADMIN_EMAIL, 'GET', '/organizations')).body.find((o: { role: string; type: string }) => o.role === 'CREATOR' && o.type === 'PERSONAL');
    expect((await call(USER_EMAIL, 'GET', `/organization/${personalOfAdmin.id}/audit`)).status).toBe(404);
  });

  it('filters by who, device, kind, outcome and time, pages by keyset, newest first', async () => {
    const all = (await page('size=200')).entries;
    const times = all.map((e) => Date.parse(e.time));
    expect([...times].sort((x, y) => y - x)).toEqual(times);

    const byUser = (await page(`who=${encodeURIComponent('USER@fleetlink.local')}&size=200`)).entries;
    expect(byUser.length).toBeGreaterThan(0);
    expect(byUser.every((e) => e.username === USER_EMAIL)).toBe(true);
    const errors = (await page('outcome=error&size=200')).entries;
    expect(errors.length).toBeGreaterThan(3);
    expect(errors.every((e) => e.outcome === 'error' && e.error)).toBe(true);
    const commands = (await page('kind=command&outcome=ok')).entries;
    expect(commands).toHaveLength(1);

    const middle = all[Math.floor(all.length / 2)]!;
    const older = (await page(`to=${encodeURIComponent(middle.time)}&size=200`)).entries;
    expect(older.length).toBeGreaterThan(0);
    expect(older.every((e) => Date.parse(e.time) <= Date.parse(middle.time))).toBe(true);
    const newer = (await page(`from=${encodeURIComponent(middle.time)}&size=200`)).entries;
    expect(newer.every((e) => Date.parse(e.time) >= Date.parse(middle.time))).toBe(true);

    // Walking the pages two at a time gives every entry once, in order.
    const walked: string[] = [];
    let after: string | null = '';
    while (after !== null) {
      const p = await page(`size=2${after ? `&after=${after}` : ''}`);
      walked.push(...p.entries.map((e) => e.id));
      after = p.next;
    }
    expect(walked).toEqual(all.map((e) => e.id));
  });

  it('answers bad filters with a 400 that says what is wrong', async () => {
    const bad = async (query: string) => (await call(ADMIN_EMAIL, 'GET', `/audit?${query}`)).body;
    expect((await bad('after=abc')).message).toContain('This page link is not valid');
    // The largest cursor the contract lets through still reads (an empty page), never a 500.
    expect((await call(ADMIN_EMAIL, 'GET', `/audit?after=253402300799999_${'9'.repeat(18)}`)).status).toBe(200);
    expect((await call(ADMIN_EMAIL, 'GET', `/audit?after=1_${'9'.repeat(19)}`)).status).toBe(400);
    expect((await bad('who=a%00b')).fields).toMatchObject({ who: 'Who cannot contain control characters.' });
    expect((await bad('device=a%00b')).fields).toMatchObject({ device: 'Device cannot contain control characters.' });
    expect((await bad('from=0000-01-01T00:00:00Z')).fields).toMatchObject({ from: 'From must be between the years 1970 and 9999.' });
    for (const edge of ['from=1970-01-01T00:00:00Z', 'to=9999-12-31T23:59:59.999Z', 'from=2026-11-24T10:00:00%2B14:00']) {
      expect((await call(ADMIN_EMAIL, 'GET', `/audit?${edge}`)).status, edge).toBe(200);
    }
    expect((await bad('kind=nonsense')).fields).toMatchObject({ kind: 'Kind is not one of the recorded kinds of action.' });
    expect((await bad('from=yesterday')).fields.from).toContain('From must be a date and time');
    expect((await bad('from=2026-11-24T10:00:00Z&to=2026-11-23T10:00:00Z')).fields).toMatchObject({ to: 'The start of the time range must not be after its end.' });
    expect((await call(ADMIN_EMAIL, 'GET', '/audit?size=201')).status).toBe(400);
  });

  it('exports the filtered view as RFC 4180 CSV that no spreadsheet runs as a formula', async () => {
    const form = { organization: userOrg, name: HOSTILE, branch: 'PRODUCTION', tags: [] };
    const id = (await call(USER_EMAIL, 'POST', '/device', form)).body.id;
    const csv = await call(ADMIN_EMAIL, 'GET', `/audit/export?device=${id}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="fleetlink-audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (csv.body as string).split('\r\n');
    expect(lines[0]).toBe('Time,Who,Subject,Client address,Action,Kind,Organization,Organization id,Device,Device id,Outcome,Error,Details');
    expect(lines).toHaveLength(3); // header, the one entry, and the empty string after the last CRLF
    expect(lines[1]).toContain(`,"'=HYPERLINK(""http://evil.example"",""click"")",${id},ok,,`);
    expect(lines[1]).toContain(',Device created,device.create,');

    const org = await call(USER_EMAIL, 'GET', `/organization/${userOrg}/audit/export?kind=device.create`);
    expect(org.status).toBe(200);
    const rows = (org.body as string).trim().split('\r\n').slice(1);
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.every((r) => r.includes(',device.create,'))).toBe(true);
  });
  it('hands a browser a one-time link to the same CSV, bound to what its reader may see', async () => {
    const db = s.tc.database.db;
    const link = async (who: string, path: string) => {
      const res = await call(who, 'POST', path);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(res.body).toMatch(/^\/api\/audit-export\/[0-9a-f-]{36}\?token=[\w-]{43}$/);
      return res.body as string;
    };
    // Opened with no bearer token, as a browser's navigation is.
    const open = async (url: string) => {
      const res = await s.tc.api(url);
      return { status: res.status, type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition'), text: await res.text() };
    };

    const url = await link(ADMIN_EMAIL, '/audit/export-link?kind=device.create');
    const direct = await call(ADMIN_EMAIL, 'GET', '/audit/export?kind=device.create');
    const first = await open(url);
    expect(first).toMatchObject({ status: 200, type: 'text/csv; charset=utf-8', text: direct.body });
    expect(first.disposition).toMatch(/^attachment; filename="fleetlink-audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const gone = 'This export link was used already or has expired: export again from the audit trail.';
    expect(JSON.parse((await open(url)).text)).toMatchObject({ message: gone });
    expect((await open(url)).status).toBe(410);
    expect((await open(url.replace(/token=.*/, 'token=guessed'))).status).toBe(410);
    expect((await open('/api/audit-export/not-an-id?token=x')).status).toBe(400);

    const late = await link(ADMIN_EMAIL, '/audit/export-link');
    await db.execute(sql`update audit_exports set expires_at = now() - interval '1 second'`);
    expect(JSON.parse((await open(late)).text)).toMatchObject({ message: gone });
    // Only the hash of a token is stored.
    const stored = JSON.stringify((await db.execute(sql`select * from audit_exports`)).rows);
    expect(stored).not.toContain(new URL(late, s.tc.url).searchParams.get('token')!);

    // An organization's link exports that organization's entries only, for its managers only.
    const activity = await link(USER_EMAIL, `/organization/${userOrg}/audit/export-link?kind=device.create`);
    const rows = (await open(activity)).text.trim().split('\r\n');
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.slice(1).every((r) => r.includes(`,${userOrg},`) && r.includes(',device.create,'))).toBe(true);
    expect((await call(USER_EMAIL, 'POST', '/audit/export-link')).status).toBe(403);
    const other = await memberDevice(db, 'linked elsewhere'); // user@ is a USER member there
    expect((await call(USER_EMAIL, 'POST', `/organization/${other.organizationId}/audit/export-link`)).status).toBe(403);
    const personalOfAdmin = (await call(ADMIN_EMAIL, 'GET', '/organizations')).body.find((o: { role: string; type: string }) => o.role === 'CREATOR' && o.type === 'PERSONAL');
    expect((await call(USER_EMAIL, 'POST', `/organization/${personalOfAdmin.id}/audit/export-link`)).status).toBe(404);
    expect((await call(ADMIN_EMAIL, 'POST', '/audit/export-link?kind=nonsense')).body.fields).toMatchObject({ kind: 'Kind is not one of the recorded kinds of action.' });
  });
});
