import { ORGANIZATION_HAS_DEVICES } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../../db/schema/index.js';
import { startTestConsole, type TestConsole } from '../../testing/test-console.js';
import { startLocalDnsServer } from './local-dns-server.test-support.js';

const ADMIN = 'admin@fleetlink.local';
const USER = 'user@fleetlink.local';
const GUEST = 'guest@fleetlink.local';
const PROXY = 'proxy.fleetlink.test';

const company = {
  type: 'COMPANY',
  name: 'Acme Robotics',
  country: 'NL',
  address: 'Keizersgracht 1, 1015 CJ Amsterdam',
  telephone: '+31 20 123 4567',
  email: 'Office@Acme.example',
  vat: 'NL123456789B01',
};

describe('organizations API', () => {
  let c: TestConsole;
  let dns: Awaited<ReturnType<typeof startLocalDnsServer>>;
  let orgId: string;

  // Status and body only: the tests compare the answer whole.
  const call = async (who: string | undefined, method: string, path: string, json?: unknown) => {
    const { status, body } = await c.call(who, method, `/api${path}`, json);
    return { status, body };
  };

  beforeAll(async () => {
    dns = await startLocalDnsServer();
    c = await startTestConsole({ TUNNEL_PROXY_HOST: PROXY, DNS_SERVERS: dns.address, DOMAIN_CHECK_INTERVAL: '1' });
    await c.signIn(ADMIN, USER, GUEST);
  });
  afterAll(async () => {
    await c?.close();
    await dns?.close();
  });

  it('gives every user a PERSONAL organization they created', async () => {
    const { status, body } = await call(USER, 'GET', '/organizations');
    expect(status).toBe(200);
    expect(body).toEqual([expect.objectContaining({ type: 'PERSONAL', role: 'CREATOR', email: USER })]);
  });

  it('validates the organization form with the SPEC messages', async () => {
    const empty = await call(ADMIN, 'POST', '/organization', {});
    expect(empty.status).toBe(400);
    expect(empty.body.fields).toMatchObject({
      name: 'Name is required.',
      country: 'Country is required.',
      address: 'Address is required.',
      email: 'Email is required.',
    });
    const bad = await call(ADMIN, 'POST', '/organization', { ...company, email: 'nope', country: 'US', name: '  ' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toMatchObject({ email: 'Email is not a valid email address.', country: 'Country is required.', name: 'Name is required.' });
    // An ISO country outside the EU, or a code that is no country, gets the form's message.
    for (const country of ['CH', 'GB', 'XK', 'nl', 'EU']) {
      const other = await call(ADMIN, 'POST', '/organization', { ...company, country });
      expect([other.status, other.body.fields]).toEqual([400, { country: 'Country is required.' }]);
    }
    expect((await call(ADMIN, 'POST', '/organization', { ...company, telephone: 'call me' })).body.fields).toEqual({
      telephone: 'Telephone is not a valid, it contain invalid characters.',
    });
  });

  it('creates an organization with the creator as CREATOR, type PERSONAL by default and no VAT for PERSONAL', async () => {
    const personal = await call(ADMIN, 'POST', '/organization', { ...company, type: undefined, telephone: '' });
    expect(personal.status).toBe(201);
    expect(personal.body).toMatchObject({ type: 'PERSONAL', vat: null, telephone: null, role: 'CREATOR', email: 'office@acme.example' });

    const created = await call(ADMIN, 'POST', '/organization', company);
    expect(created.status).toBe(201);
    orgId = created.body.id;
    expect(created.body).toMatchObject({
      type: 'COMPANY',
      vat: 'NL123456789B01',
      devicesCount: 0,
      proxyHost: PROXY,
      users: [{ email: ADMIN, role: 'CREATOR', requestDate: expect.any(String) }],
      domains: [],
    });
  });

  it('answers 400 for malformed ids and 404 for unknown ones', async () => {
    expect((await call(ADMIN, 'GET', '/organization/not-a-uuid')).status).toBe(400);
    expect((await call(ADMIN, 'DELETE', `/organization/${orgId}/user/xyz`)).status).toBe(400);
    expect((await call(ADMIN, 'DELETE', `/organization/${orgId}/domain/1`)).status).toBe(400);
    expect((await call(ADMIN, 'GET', '/organization/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('requires realm USER for every route and realm ADMIN for all-organizations', async () => {
    const paths: [string, string][] = [
      ['GET', '/organizations'],
      ['GET', `/organization/${orgId}`],
      ['POST', '/organization'],
      ['PUT', `/organization/${orgId}`],
      ['DELETE', `/organization/${orgId}`],
      ['POST', `/organization/${orgId}/user`],
      ['DELETE', `/organization/${orgId}/user/${orgId}`],
      ['POST', `/organization/${orgId}/domain`],
      ['DELETE', `/organization/${orgId}/domain/${orgId}`],
      ['GET', '/all-organizations'],
    ];
    for (const [method, path] of paths) {
      expect((await call(GUEST, method, path, method === 'POST' || method === 'PUT' ? {} : undefined)).status, `${method} ${path}`).toBe(403);
      expect((await call(undefined, method, path)).status, `${method} ${path}`).toBe(401);
    }
    expect((await call(USER, 'GET', '/all-organizations')).status).toBe(403);
    const all = await call(ADMIN, 'GET', '/all-organizations');
    expect(all.status).toBe(200);
    expect(all.body.map((o: { name: string }) => o.name)).toEqual(expect.arrayContaining(['Acme Robotics', 'Ulla User']));
  });

  it('hides the organization and everything in it from non-members with 404', async () => {
    const member = (await call(ADMIN, 'GET', `/organization/${orgId}`)).body.users[0].id;
    const checks: [string, string, unknown?][] = [
      ['GET', `/organization/${orgId}`],
      ['PUT', `/organization/${orgId}`, company],
      ['DELETE', `/organization/${orgId}`],
      ['POST', `/organization/${orgId}/user`, { email: 'x@example.com' }],
      ['DELETE', `/organization/${orgId}/user/${member}`],
      ['POST', `/organization/${orgId}/domain`, { domain: 'nm.example.com' }],
      ['DELETE', `/organization/${orgId}/domain/${member}`],
    ];
    for (const [method, path, json] of checks) expect((await call(USER, method, path, json)).status, `${method} ${path}`).toBe(404);
    expect((await call(USER, 'GET', '/organizations')).body.map((o: { id: string }) => o.id)).not.toContain(orgId);
  });

  it('realm ADMIN gets no access to organizations they are not a member of', async () => {
    const personal = (await call(USER, 'GET', '/organizations')).body[0].id;
    expect((await call(ADMIN, 'GET', `/organization/${personal}`)).status).toBe(404);
    expect((await call(ADMIN, 'PUT', `/organization/${personal}`, company)).status).toBe(404);
  });

  it('validates and refuses duplicate members', async () => {
    expect((await call(ADMIN, 'POST', `/organization/${orgId}/user`, {})).body.fields).toEqual({ email: 'Email is required.' });
    expect((await call(ADMIN, 'POST', `/organization/${orgId}/user`, { email: 'bad' })).body.message).toBe('Email is not a valid email address.');
    expect((await call(ADMIN, 'POST', `/organization/${orgId}/user`, { email: 'a@b.example', role: 'CREATOR' })).status).toBe(400);
    const dup = await call(ADMIN, 'POST', `/organization/${orgId}/user`, { email: ADMIN.toUpperCase() });
    expect(dup).toEqual({ status: 409, body: { code: 'CONFLICT', message: `${ADMIN} is already a member of this organization.` } });
  });

  it('an ADMIN member manages: edit, members and domains, but cannot revoke the CREATOR', async () => {
    const added = await call(ADMIN, 'POST', `/organization/${orgId}/user`, { email: USER, role: 'ADMIN' });
    expect(added).toMatchObject({ status: 201, body: { email: USER, role: 'ADMIN' } });
    expect((await call(USER, 'GET', '/organizations')).body).toContainEqual(expect.objectContaining({ id: orgId, role: 'ADMIN' }));

    const updated = await call(USER, 'PUT', `/organization/${orgId}`, { ...company, name: 'Acme Robotics BV' });
    expect(updated).toMatchObject({ status: 200, body: { name: 'Acme Robotics BV', role: 'ADMIN' } });

    const other = await call(USER, 'POST', `/organization/${orgId}/user`, { email: 'someone@example.com' });
    expect(other).toMatchObject({ status: 201, body: { role: 'USER' } });
    expect((await call(USER, 'DELETE', `/organization/${orgId}/user/${other.body.id}`)).status).toBe(204);

    const creator = (await call(USER, 'GET', `/organization/${orgId}`)).body.users.find((u: { role: string }) => u.role === 'CREATOR');
    const refused = await call(USER, 'DELETE', `/organization/${orgId}/user/${creator.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(`The access of ${ADMIN} cannot be revoked: they created this organization.`);

    const domain = await call(USER, 'POST', `/organization/${orgId}/domain`, { domain: 'Admin-Added.Example.com' });
    expect(domain).toMatchObject({ status: 201, body: { domain: 'admin-added.example.com' } });
    expect((await call(USER, 'DELETE', `/organization/${orgId}/domain/${domain.body.id}`)).status).toBe(204);
  });

  it('a USER member reads but cannot manage; revoke takes effect on the next request', async () => {
    const detail = (await call(ADMIN, 'GET', `/organization/${orgId}`)).body;
    const asAdmin = detail.users.find((u: { email: string }) => u.email === USER);
    expect((await call(ADMIN, 'DELETE', `/organization/${orgId}/user/${asAdmin.id}`)).status).toBe(204);
    const asUser = (await call(ADMIN, 'POST', `/organization/${orgId}/user`, { email: USER, role: 'USER' })).body;
    const domain = (await call(ADMIN, 'POST', `/organization/${orgId}/domain`, { domain: 'read.example.com' })).body;

    const read = await call(USER, 'GET', `/organization/${orgId}`);
    expect(read).toMatchObject({ status: 200, body: { role: 'USER', name: 'Acme Robotics BV' } });
    expect(read.body.users).toHaveLength(2);
    expect(read.body.domains).toEqual([expect.objectContaining({ domain: 'read.example.com' })]);

    const forbidden: [string, string, unknown?][] = [
      ['PUT', `/organization/${orgId}`, company],
      ['DELETE', `/organization/${orgId}`],
      ['POST', `/organization/${orgId}/user`, { email: 'x@example.com' }],
      ['DELETE', `/organization/${orgId}/user/${asUser.id}`],
      ['POST', `/organization/${orgId}/domain`, { domain: 'u.example.com' }],
      ['DELETE', `/organization/${orgId}/domain/${domain.id}`],
    ];
    for (const [method, path, json] of forbidden) expect((await call(USER, method, path, json)).status, `${method} ${path}`).toBe(403);

    expect((await call(ADMIN, 'DELETE', `/organization/${orgId}/user/${asUser.id}`)).status).toBe(204);
    expect((await call(USER, 'GET', `/organization/${orgId}`)).status).toBe(404);
    expect((await call(USER, 'GET', '/organizations')).body.map((o: { id: string }) => o.id)).not.toContain(orgId);
  });

  /** A domain's state as the organization's page reads it, once it is `status` (checks run every second here). */
  const domainBecomes = (organization: string, domain: string, expected: object) =>
    expect
      .poll(async () => (await call(ADMIN, 'GET', `/organization/${organization}`)).body.domains.find((d: { domain: string }) => d.domain === domain), { timeout: 10_000, interval: 250 })
      .toMatchObject(expected);
  const noTxt = (name: string, value: string) => `No TXT record ${name} with this organization's token found: add one with the value ${value} to prove the domain is yours.`;

  it('makes a custom domain ACTIVE once a TXT record proves it the organization’s and its CNAME points at the proxy, FAILED with the reason until then', async () => {
    dns.cnames.set('tunnels.acme.example', PROXY);
    const good = await call(ADMIN, 'POST', `/organization/${orgId}/domain`, { domain: 'tunnels.acme.example' });
    const { name, value } = good.body.challenge;
    expect(name).toBe('_fleetlink-challenge.tunnels.acme.example');
    expect(value).toMatch(/^[0-9a-f]{32}$/);
    // A CNAME alone is no proof: whoever registered a name first held it before.
    expect(good).toMatchObject({ status: 201, body: { status: 'FAILED', proven: false, statusReason: noTxt(name, value) } });
    dns.txts.set(name, [value]);
    await domainBecomes(orgId, 'tunnels.acme.example', { status: 'ACTIVE', proven: true, statusReason: null });

    dns.cnames.set('wrong.acme.example', 'elsewhere.example.net');
    const wrong = await call(ADMIN, 'POST', `/organization/${orgId}/domain`, { domain: 'wrong.acme.example' });
    dns.txts.set(wrong.body.challenge.name, [wrong.body.challenge.value]);
    await domainBecomes(orgId, 'wrong.acme.example', { status: 'FAILED', proven: true, statusReason: `CNAME points to elsewhere.example.net, expected ${PROXY}.` });

    const late = await call(ADMIN, 'POST', `/organization/${orgId}/domain`, { domain: 'late.acme.example' });
    dns.txts.set(late.body.challenge.name, ['some other text', late.body.challenge.value]);
    await domainBecomes(orgId, 'late.acme.example', { status: 'FAILED', proven: true, statusReason: `No CNAME record found for late.acme.example, expected one pointing to ${PROXY}.` });
    dns.cnames.set('late.acme.example', PROXY);
    await domainBecomes(orgId, 'late.acme.example', { status: 'ACTIVE' });
  });

  it('gives a name to the organization that proves it, taking it from one that never did', async () => {
    const personal = (await call(USER, 'GET', '/organizations')).body[0].id;
    dns.cnames.set('claimed.acme.example', PROXY);
    const squatter = await call(USER, 'POST', `/organization/${personal}/domain`, { domain: 'claimed.acme.example' });
    expect(squatter.body).toMatchObject({ status: 'FAILED', proven: false });
    // Not proven by anyone: the owner may claim it too, with a token of its own.
    const owner = await call(ADMIN, 'POST', `/organization/${orgId}/domain`, { domain: 'claimed.acme.example' });
    expect(owner.status).toBe(201);
    expect(owner.body.challenge.value).not.toBe(squatter.body.challenge.value);
    // The other organization's token proves nothing for this one.
    dns.txts.set('_fleetlink-challenge.claimed.acme.example', [squatter.body.challenge.value.replace(/./, 'x')]);
    await new Promise((r) => setTimeout(r, 1500));
    await domainBecomes(orgId, 'claimed.acme.example', { status: 'FAILED', proven: false });
    dns.txts.set('_fleetlink-challenge.claimed.acme.example', [owner.body.challenge.value]);
    await domainBecomes(orgId, 'claimed.acme.example', { status: 'ACTIVE', proven: true });
    expect((await call(USER, 'GET', `/organization/${personal}`)).body.domains.map((d: { domain: string }) => d.domain)).not.toContain('claimed.acme.example');
    // The organization that lost it reads why in its audit trail.
    const trail = (await call(USER, 'GET', `/organization/${personal}/audit`)).body.entries as { kind: string; username: string | null; details: object }[];
    expect(trail.find((e) => e.kind === 'domain.remove')).toMatchObject({ username: null, details: { domain: 'claimed.acme.example', reason: 'Another organization proved the domain its own.' } });
    // Proven, it is one organization's: nobody else can claim it now.
    expect(await call(USER, 'POST', `/organization/${personal}/domain`, { domain: 'claimed.acme.example' })).toEqual({
      status: 409,
      body: { code: 'CONFLICT', message: 'The domain claimed.acme.example is already registered.' },
    });
  });

  it('validates domains and keeps them unique across organizations', async () => {
    expect((await call(ADMIN, 'POST', `/organization/${orgId}/domain`, {})).body.message).toBe('Domain is required.');
    for (const domain of ['not a host', 'nodot', '-x.example.com', 'a..b.com', 'https://x.example.com']) {
      const res = await call(ADMIN, 'POST', `/organization/${orgId}/domain`, { domain });
      expect(res.status, domain).toBe(400);
      expect(res.body.message).toBe('Domain is not a valid, it contain invalid characters.');
    }
    const personal = (await call(USER, 'GET', '/organizations')).body[0].id;
    const taken = await call(USER, 'POST', `/organization/${personal}/domain`, { domain: 'TUNNELS.acme.example.' });
    expect(taken).toEqual({ status: 409, body: { code: 'CONFLICT', message: 'The domain tunnels.acme.example is already registered.' } });
    expect((await call(ADMIN, 'DELETE', `/organization/${orgId}/domain/${personal}`)).status).toBe(404);
  });

  it("shares the organization's devices with members at once, and hides them at once on revoke", async () => {
    const device = await call(ADMIN, 'POST', '/device', { organization: orgId, name: 'shared robot', branch: 'PRODUCTION' });
    expect(device.status).toBeLessThan(300);
    const deviceId = device.body.id;
    const visible = async () => JSON.stringify((await call(USER, 'GET', '/devices')).body).includes('shared robot');

    expect((await call(USER, 'GET', `/device/${deviceId}`)).status).toBe(404);
    expect(await visible()).toBe(false);

    const member = (await call(ADMIN, 'POST', `/organization/${orgId}/user`, { email: USER, role: 'USER' })).body;
    expect((await call(USER, 'GET', `/device/${deviceId}`)).status).toBe(200);
    expect(await visible()).toBe(true);
    expect((await call(USER, 'PUT', `/device/${deviceId}`, { organization: orgId, name: 'renamed', branch: 'PRODUCTION' })).status).toBe(403);
    expect((await call(USER, 'DELETE', `/device/${deviceId}`)).status).toBe(403);

    expect((await call(ADMIN, 'DELETE', `/organization/${orgId}/user/${member.id}`)).status).toBe(204);
    expect((await call(USER, 'GET', `/device/${deviceId}`)).status).toBe(404);
    expect(await visible()).toBe(false);

    expect((await call(ADMIN, 'DELETE', `/device/${deviceId}`)).status).toBeLessThan(300);
  });

  it('refuses to delete an organization with devices, and deletes it without', async () => {
    await c.database.db.insert(devices).values({ organizationId: orgId, name: 'robot', installationKey: 'k' });
    expect((await call(ADMIN, 'GET', `/organization/${orgId}`)).body.devicesCount).toBe(1);
    expect(await call(ADMIN, 'DELETE', `/organization/${orgId}`)).toEqual({ status: 409, body: { code: 'CONFLICT', message: ORGANIZATION_HAS_DEVICES } });
    await c.database.db.delete(devices);
    expect((await call(ADMIN, 'DELETE', `/organization/${orgId}`)).status).toBe(204);
    expect((await call(ADMIN, 'GET', `/organization/${orgId}`)).status).toBe(404);
  });
});
