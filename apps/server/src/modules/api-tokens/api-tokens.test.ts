import { apiTokenSecretPattern } from '@fleetlink/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens, auditEntries, users } from '../../db/schema/index.js';
import { startTestConsole, type TestConsole } from '../../testing/test-console.js';

const ADMIN = 'admin@fleetlink.local';
const USER = 'user@fleetlink.local';
const GUEST = 'guest@fleetlink.local';

const company = { type: 'COMPANY', name: 'Token Robotics', country: 'NL', address: 'Dam 1, Amsterdam', email: 'office@token.example' };

/**
 * Personal API tokens (issue 62) against the real console and its database: a script's calls with
 * `Authorization: Bearer flt_…`, every refusal with its message.
 */
describe('personal API tokens', () => {
  let c: TestConsole;
  let personalOrg: string;
  let companyOrg: string;
  let personalDevice: string;
  let companyDevice: string;

  /** Calls with a bearer secret instead of a seeded account's sign-in. */
  const withToken = async (secret: string, method: string, path: string, json?: unknown) => {
    const res = await c.api(path, { method, token: secret, json });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
  const create = async (who: string, form: Record<string, unknown>) => {
    const res = await c.call(who, 'POST', '/api/api-tokens', form);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string; secret: string; name: string };
  };
  const auditOf = async (kind: string) =>
    (await c.database.db.select().from(auditEntries).where(eq(auditEntries.kind, kind))).map((e) => ({
      username: e.username,
      kind: e.kind,
      details: e.details,
      outcome: e.outcome,
      error: e.error,
    }));

  beforeAll(async () => {
    c = await startTestConsole({ API_TOKEN_RATE_LIMIT: '30' });
    await c.signIn(ADMIN, USER, GUEST);
    personalOrg = (await c.call(USER, 'GET', '/api/organizations')).body[0].id;
    companyOrg = (await c.call(USER, 'POST', '/api/organization', company)).body.id;
    personalDevice = (await c.call(USER, 'POST', '/api/device', { organization: personalOrg, name: 'home-pi', branch: 'PRODUCTION' })).body.id;
    companyDevice = (await c.call(USER, 'POST', '/api/device', { organization: companyOrg, name: 'plant-pi', branch: 'PRODUCTION' })).body.id;
  }, 60_000);
  afterAll(async () => c?.close());

  it('creates a token whose secret is shown once, and calls the API as its owner with it', async () => {
    const created = await create(USER, { name: 'ci deploy', scope: 'WRITE' });
    expect(created.secret).toMatch(apiTokenSecretPattern);
    expect(created).toMatchObject({ name: 'ci deploy', scope: 'WRITE', organizations: null, owner: { username: USER }, lastUsedAt: null });
    // 90 days by default.
    const days = (Date.parse((created as unknown as { expiresAt: string }).expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThanOrEqual(90);

    const me = await withToken(created.secret, 'GET', '/api/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: USER, roles: ['USER'], sessionId: null });
    const search = await withToken(created.secret, 'GET', '/api/devices?search=pi');
    expect(search.body.devices.map((d: { name: string }) => d.name).sort()).toEqual(['home-pi', 'plant-pi']);

    // The list never holds the secret, nor its hash; it shows the last use.
    const list = await c.call(USER, 'GET', '/api/api-tokens');
    expect(JSON.stringify(list.body)).not.toContain(created.secret.slice(4));
    const [row] = (await c.database.db.select().from(apiTokens).where(eq(apiTokens.id, created.id)));
    expect(JSON.stringify(list.body)).not.toContain(row!.secretHash);
    expect(row!.secretHash).not.toContain(created.secret.slice(4));
    expect(list.body.items.find((t: { id: string }) => t.id === created.id)).toMatchObject({ lastUsedAddress: '127.0.0.1', lastUsedAt: expect.any(String) });
    expect(list.body.noExpiryAllowed).toBe(false);
  });

  it('a read-only token reads, and is refused a POST with a message that says it is read-only', async () => {
    const { secret } = await create(USER, { name: 'monitoring', scope: 'READ' });
    expect((await withToken(secret, 'GET', `/api/device/${companyDevice}`)).status).toBe(200);
    expect((await withToken(secret, 'HEAD', `/api/device/${companyDevice}`)).status).toBe(200);
    const post = await withToken(secret, 'POST', '/api/device', { organization: personalOrg, name: 'nope', branch: 'PRODUCTION' });
    expect(post).toMatchObject({ status: 403, body: { message: 'This API token is read-only: it can only read (GET and HEAD), not POST.' } });
    const del = await withToken(secret, 'DELETE', `/api/device/${personalDevice}`);
    expect(del.status).toBe(403);
    expect((await c.call(USER, 'GET', `/api/device/${personalDevice}`)).status).toBe(200);
  });

  it('a token limited to an organization answers 404 for the devices of the others, and lists only its own', async () => {
    const { secret } = await create(USER, { name: 'plant only', scope: 'WRITE', organizations: [companyOrg] });
    expect((await withToken(secret, 'GET', `/api/device/${companyDevice}`)).status).toBe(200);
    expect(await withToken(secret, 'GET', `/api/device/${personalDevice}`)).toMatchObject({ status: 404, body: { message: 'Device not found.' } });
    expect((await withToken(secret, 'GET', `/api/organization/${personalOrg}`)).status).toBe(404);
    expect((await withToken(secret, 'GET', '/api/organizations')).body.map((o: { id: string }) => o.id)).toEqual([companyOrg]);
    expect((await withToken(secret, 'GET', '/api/devices?search=')).body.devices.map((d: { id: string }) => d.id)).toEqual([companyDevice]);
    const elsewhere = await withToken(secret, 'POST', '/api/device', { organization: personalOrg, name: 'sneaky', branch: 'PRODUCTION' });
    expect(elsewhere.status).toBe(403);
    const made = await withToken(secret, 'POST', '/api/device', { organization: companyOrg, name: 'made by script', branch: 'PRODUCTION' });
    expect(made.status).toBe(201);
    // The audit trail says the person did it, through which token.
    expect((await auditOf('device.create')).find((e) => e.details.name === 'made by script')).toMatchObject({
      username: USER,
      details: { apiToken: 'plant only', name: 'made by script' },
      outcome: 'ok',
    });
  });

  it('a token cannot be limited to an organization its owner is not a member of', async () => {
    const adminOrg = (await c.call(ADMIN, 'GET', '/api/organizations')).body[0].id;
    const res = await c.call(USER, 'POST', '/api/api-tokens', { name: 'foreign', scope: 'READ', organizations: [adminOrg] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`A token can only be limited to your own organizations: you are not a member of ${adminOrg}.`);
  });

  it('a realm ADMIN token limited to organizations is kept off the realm-wide routes, and its own org limit holds for ADMIN too', async () => {
    const adminOrg = (await c.call(ADMIN, 'GET', '/api/organizations')).body[0].id;
    const limited = await create(ADMIN, { name: 'admin limited', scope: 'READ', organizations: [adminOrg] });
    const full = await create(ADMIN, { name: 'admin full', scope: 'READ' });
    expect((await withToken(full.secret, 'GET', '/api/servers')).status).toBe(200);
    expect(await withToken(limited.secret, 'GET', '/api/servers')).toMatchObject({
      status: 403,
      body: { message: 'This API token is limited to some organizations: it cannot use the realm administration routes, which reach every organization.' },
    });
    expect((await withToken(limited.secret, 'GET', '/api/all-organizations')).status).toBe(403);
  });

  it('revoked, expired and unknown tokens get 401 saying which', async () => {
    const revoked = await create(USER, { name: 'to revoke', scope: 'READ' });
    expect((await withToken(revoked.secret, 'GET', '/api/me')).status).toBe(200);
    expect((await c.call(USER, 'DELETE', `/api/api-tokens/${revoked.id}`)).status).toBe(204);
    const today = new Date().toISOString().slice(0, 10);
    expect(await withToken(revoked.secret, 'GET', '/api/me')).toMatchObject({
      status: 401,
      body: { message: `This API token was revoked on ${today}: create a new one under API tokens in your profile.` },
    });
    expect((await c.call(USER, 'DELETE', `/api/api-tokens/${revoked.id}`)).status).toBe(404);
    expect((await c.call(USER, 'GET', '/api/api-tokens')).body.items.map((t: { id: string }) => t.id)).not.toContain(revoked.id);

    const expired = await create(USER, { name: 'short lived', scope: 'READ', expiresInDays: 1 });
    await c.database.db.update(apiTokens).set({ expiresAt: new Date('2026-01-02T10:00:00Z') }).where(eq(apiTokens.id, expired.id));
    expect(await withToken(expired.secret, 'GET', '/api/me')).toMatchObject({
      status: 401,
      body: { message: 'This API token expired on 2026-01-02: create a new one under API tokens in your profile.' },
    });

    const unknown = await withToken(`flt_${'A'.repeat(43)}`, 'GET', '/api/me');
    expect(unknown).toMatchObject({ status: 401, body: { message: 'This API token is unknown: it was not issued by this console, or not copied whole.' } });
    expect((await withToken(revoked.secret.slice(0, -1), 'GET', '/api/me')).body.message).toBe(unknown.body.message);
  });

  it("stops a token whose owner has not signed in for API_TOKEN_OWNER_DAYS (gone from the provider)", async () => {
    const { secret } = await create(GUEST, { name: 'guest script', scope: 'READ' });
    expect((await withToken(secret, 'GET', '/api/me')).status).toBe(200);
    const [guest] = await c.database.db.select().from(users).where(eq(users.username, GUEST));
    await c.database.db.update(users).set({ lastSeenAt: new Date(Date.now() - 91 * 86_400_000) }).where(eq(users.subject, guest!.subject));
    expect(await withToken(secret, 'GET', '/api/me')).toMatchObject({
      status: 401,
      body: { message: "This API token's owner has not signed in for more than 90 days, so it no longer works: its owner must sign in to the console again." },
    });
    await c.database.db.update(users).set({ lastSeenAt: guest!.lastSeenAt }).where(eq(users.subject, guest!.subject));
  });

  it('refuses what the form does not allow: no expiry, a name twice, a token made by a token', async () => {
    const never = await c.call(USER, 'POST', '/api/api-tokens', { name: 'forever', scope: 'READ', expiresInDays: null });
    expect(never).toMatchObject({ status: 400, body: { fields: { expiresInDays: 'Choose an expiry of at most 365 days.' } } });
    const tooLong = await c.call(USER, 'POST', '/api/api-tokens', { name: 'long', scope: 'READ', expiresInDays: 366 });
    expect(tooLong).toMatchObject({ status: 400, body: { fields: { expiresInDays: 'Expiry must be less than 366.' } } });
    const { secret } = await create(USER, { name: 'twice', scope: 'WRITE' });
    expect(await c.call(USER, 'POST', '/api/api-tokens', { name: 'twice', scope: 'READ' })).toMatchObject({
      status: 409,
      body: { message: 'You already have a token named twice: choose another name.' },
    });
    expect(await withToken(secret, 'POST', '/api/api-tokens', { name: 'child', scope: 'WRITE' })).toMatchObject({
      status: 403,
      body: { message: 'An API token cannot create API tokens: sign in to the console to create one.' },
    });
  });

  it('a realm ADMIN sees every user’s tokens, never their secrets, and revokes another’s; a USER cannot', async () => {
    const { id, secret } = await create(USER, { name: 'to be revoked by admin', scope: 'READ' });
    const all = await c.call(ADMIN, 'GET', '/api/all-api-tokens');
    expect(all.body.items.find((t: { id: string }) => t.id === id)).toMatchObject({ owner: { username: USER }, name: 'to be revoked by admin' });
    expect(JSON.stringify(all.body)).not.toMatch(/flt_/);
    expect((await c.call(USER, 'GET', '/api/all-api-tokens')).status).toBe(403);
    const adminToken = await create(ADMIN, { name: 'admin own', scope: 'READ' });
    expect((await c.call(USER, 'DELETE', `/api/api-tokens/${adminToken.id}`)).status).toBe(404);
    expect((await c.call(ADMIN, 'DELETE', `/api/api-tokens/${id}`)).status).toBe(204);
    expect((await withToken(secret, 'GET', '/api/me')).status).toBe(401);
    const entries = await auditOf('api-token.revoke');
    expect(entries).toContainEqual({
      username: ADMIN,
      kind: 'api-token.revoke',
      details: { tokenId: id, name: 'to be revoked by admin', owner: USER },
      outcome: 'ok',
      error: null,
    });
  });

  it('writes create, revoke and the first use from a new address to the audit trail, once each', async () => {
    const { id, secret } = await create(USER, { name: 'audited', scope: 'READ', expiresInDays: 7 });
    for (let i = 0; i < 3; i++) expect((await withToken(secret, 'GET', '/api/me')).status).toBe(200);
    expect((await c.call(USER, 'DELETE', `/api/api-tokens/${id}`)).status).toBe(204);
    const of = (entries: Awaited<ReturnType<typeof auditOf>>) => entries.filter((e) => e.details.tokenId === id);
    expect(of(await auditOf('api-token.create'))).toEqual([
      {
        username: USER,
        kind: 'api-token.create',
        details: { name: 'audited', scope: 'READ', expiresInDays: 7, organizations: [], tokenId: id },
        outcome: 'ok',
        error: null,
      },
    ]);
    expect(of(await auditOf('api-token.new-address'))).toEqual([
      { username: USER, kind: 'api-token.new-address', details: { apiToken: 'audited', tokenId: id }, outcome: 'ok', error: null },
    ]);
    expect(of(await auditOf('api-token.revoke'))).toEqual([
      { username: USER, kind: 'api-token.revoke', details: { tokenId: id, name: 'audited', owner: USER }, outcome: 'ok', error: null },
    ]);
  });

  it('limits each token to API_TOKEN_RATE_LIMIT requests a minute: 429 with Retry-After', async () => {
    const { secret } = await create(USER, { name: 'busy', scope: 'READ' });
    const other = await create(USER, { name: 'quiet', scope: 'READ' });
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await withToken(secret, 'GET', '/api/me')).status);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    const refused = await withToken(secret, 'GET', '/api/me');
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body.message).toBe(`This API token made more than 30 requests in a minute: try again in ${retryAfter} seconds.`);
    // Per token: another token of the same person, and the person's own sign-in, go on.
    expect((await withToken(other.secret, 'GET', '/api/me')).status).toBe(200);
    expect((await c.call(USER, 'GET', '/api/me')).status).toBe(200);
  });
});
