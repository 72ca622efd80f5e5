import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceSearch, deviceServers, devices, organizationMembers, servers } from '../../db/schema/index.js';
import { startTestConsole, type TestConsole } from '../../testing/test-console.js';
import { DevicesRepository } from './devices.repository.js';
import { InstallationKeys } from '../enrollment/installation-keys.js';

const ADMIN = 'admin@fleetlink.local';
const USER = 'user@fleetlink.local';
const GUEST = 'guest@fleetlink.local';

let c: TestConsole;
const tokens: Record<string, string> = {};
let userOrg: string;
let adminOrg: string;

const api = (path: string, as: string | undefined, init: { method?: string; json?: unknown; body?: string; headers?: Record<string, string> } = {}) =>
  c.api(path, { ...init, token: as ? tokens[as] : undefined });
const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });

async function personalOrg(email: string): Promise<string> {
  const { status, body } = await json(await api('/api/device-organizations', email));
  expect(status).toBe(200);
  const personal = body.find((o: { type: string }) => o.type === 'PERSONAL');
  expect(personal).toBeDefined();
  return personal.id;
}

async function create(email: string, form: Record<string, unknown>) {
  return json(await api('/api/device', email, { method: 'POST', json: { branch: 'PRODUCTION', ...form } }));
}

/** A device's row written as an agent's reports and states end up in it. */
const setRow = (id: string, values: Partial<typeof devices.$inferInsert>) => c.database.db.update(devices).set(values).where(eq(devices.id, id));

beforeAll(async () => {
  c = await startTestConsole();
  for (const email of [ADMIN, USER, GUEST]) tokens[email] = await c.token(email);
  userOrg = await personalOrg(USER);
  adminOrg = await personalOrg(ADMIN);
});
afterAll(() => c?.close());

describe('authentication and realm roles', () => {
  it('answers 401 without a token on every device route', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const calls: [string, string][] = [
      ['GET', '/api/devices'],
      ['POST', '/api/device'],
      ['GET', `/api/device/${id}`],
      ['PUT', `/api/device/${id}`],
      ['DELETE', `/api/device/${id}`],
      ['GET', '/api/tags'],
      ['GET', '/api/device-organizations'],
      ['GET', '/api/devices-search-reindex'],
    ];
    for (const [method, path] of calls) {
      const res = await api(path, undefined, { method });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect((await res.json()).code).toBe('UNAUTHENTICATED');
    }
  });

  it('answers 403 to a signed-in user without realm role USER', async () => {
    for (const path of ['/api/devices', '/api/tags', '/api/device-organizations']) {
      expect((await api(path, GUEST)).status).toBe(403);
    }
    expect((await create(GUEST, { organization: userOrg, name: 'x' })).status).toBe(403);
  });
});

describe('create', () => {
  it('registers a device with a secret installation key in the caller’s organization', async () => {
    const { status, body } = await create(USER, {
      organization: userOrg,
      name: '  Office printer ',
      description: 'Line one\nline two',
      tags: ['office', 'printer', 'office', ' '.repeat(0) + 'floor-2'],
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      name: 'Office printer',
      description: 'Line one\nline two',
      branch: 'PRODUCTION',
      online: false,
      properties: null,
      addresses: [],
      drives: [],
      servers: [],
      monitors: [],
      tunnels: [],
      lastResponse: null,
      latency: null,
      tags: ['office', 'printer', 'floor-2'],
      organization: { id: userOrg, type: 'PERSONAL', domains: [] },
    });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.installationId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const other = await create(USER, { organization: userOrg, name: 'second' });
    expect(other.body.installationId).not.toBe(body.installationId);
  });

  it('applies the device form rules with the spec’s messages', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: 'a' }, 'organization', 'Organization is required.'],
      [{ organization: '', name: 'a' }, 'organization', 'Organization is required.'],
      [{ organization: userOrg }, 'name', 'Name is required.'],
      [{ organization: userOrg, name: '   ' }, 'name', 'Name is required.'],
      [{ organization: userOrg, name: 'x'.repeat(65) }, 'name', 'Name must be less than 65 characters.'],
      [{ organization: userOrg, name: 'a', branch: 'NIGHTLY' }, 'branch', 'Branch is required.'],
      [{ organization: userOrg, name: 'a', branch: null }, 'branch', 'Branch is required.'],
      [{ organization: userOrg, name: 'a', tags: ['x'.repeat(65)] }, 'tags.0', 'Tag must be less than 65 characters.'],
      [{ organization: userOrg, name: 'a', description: 'x'.repeat(1025) }, 'description', 'Description must be less than 1025 characters.'],
    ];
    for (const [form, field, message] of cases) {
      const res = await json(await api('/api/device', USER, { method: 'POST', json: { branch: 'PRODUCTION', ...form } }));
      expect(res.status, JSON.stringify(form)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.fields[field], JSON.stringify(res.body)).toBe(message);
    }
    expect((await create(USER, { organization: userOrg, name: 'x'.repeat(64) })).status).toBe(201);
  });

  it('rejects bad JSON and a body that is not an object with 400', async () => {
    const bad = await api('/api/device', USER, { method: 'POST', body: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe('The request body is not valid JSON.');
    expect((await api('/api/device', USER, { method: 'POST', json: [1, 2] })).status).toBe(400);
  });

  it('refuses to create in an organization where the caller is not CREATOR or ADMIN', async () => {
    const res = await create(USER, { organization: adminOrg, name: 'intruder' });
    expect(res.status).toBe(403);
    expect((await create(USER, { organization: '00000000-0000-4000-8000-000000000000', name: 'x' })).status).toBe(403);
  });

  it('lists only organizations where the caller may create devices', async () => {
    const { body } = await json(await api('/api/device-organizations', USER));
    expect(body.map((o: { id: string }) => o.id)).toEqual([userOrg]);
  });
});

describe('read, update, delete', () => {
  let adminDevice: string;
  let userDevice: string;

  beforeAll(async () => {
    adminDevice = (await create(ADMIN, { organization: adminOrg, name: 'Admin gateway', tags: ['secret-tag'] })).body.id;
    userDevice = (await create(USER, { organization: userOrg, name: 'User laptop' })).body.id;
  });

  it('gives a member the device and a non-member 404', async () => {
    const own = await json(await api(`/api/device/${userDevice}`, USER));
    expect(own.status).toBe(200);
    expect(own.body.name).toBe('User laptop');
    expect(own.body.canManage).toBe(true);
    const foreign = await json(await api(`/api/device/${adminDevice}`, USER));
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ code: 'NOT_FOUND', message: 'Device not found.' });
    expect((await api('/api/device/00000000-0000-4000-8000-000000000000', USER)).status).toBe(404);
    // Nor can it be changed, deleted or found by a non-member.
    expect((await api(`/api/device/${adminDevice}`, USER, { method: 'PUT', json: { organization: userOrg, name: 'x', branch: 'PRODUCTION' } })).status).toBe(404);
    expect((await api(`/api/device/${adminDevice}`, USER, { method: 'DELETE' })).status).toBe(404);
    const search = await json(await api(`/api/devices?search=gateway`, USER));
    expect(search.body.totals.ALL).toBe(0);
    expect((await json(await api('/api/tags', USER))).body).not.toContain('secret-tag');
  });

  it('answers a malformed id with 400, not a database error', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await json(await api('/api/device/not-a-uuid', USER, { method, json: method === 'PUT' ? {} : undefined }));
      expect(res.status, method).toBe(400);
      expect(res.body.message).toBe('The device id is not valid.');
    }
  });

  it('updates a device with the same rules as create', async () => {
    const res = await json(
      await api(`/api/device/${userDevice}`, USER, {
        method: 'PUT',
        json: { organization: userOrg, name: 'User laptop 2', description: '', branch: 'ACCEPTANCE', tags: ['mobile'] },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'User laptop 2', description: null, branch: 'ACCEPTANCE', tags: ['mobile'] });
    const invalid = await json(await api(`/api/device/${userDevice}`, USER, { method: 'PUT', json: { organization: userOrg, name: '', branch: 'PRODUCTION' } }));
    expect(invalid.status).toBe(400);
    expect(invalid.body.fields.name).toBe('Name is required.');
    // Moving it into an organization where the user may not create devices is refused.
    const move = await api(`/api/device/${userDevice}`, USER, { method: 'PUT', json: { organization: adminOrg, name: 'x', branch: 'PRODUCTION' } });
    expect(move.status).toBe(403);
    // The search document follows the update.
    const found = await json(await api('/api/devices?search=mobile', USER));
    expect(found.body.devices.map((d: { id: string }) => d.id)).toContain(userDevice);
  });

  it('lets a USER member read but not change; an ADMIN member may change and delete', async () => {
    const db = c.database.db;
    await db.insert(organizationMembers).values({ organizationId: adminOrg, email: USER, role: 'USER' });
    const read = await json(await api(`/api/device/${adminDevice}`, USER));
    expect(read.status).toBe(200);
    expect(read.body.organization.id).toBe(adminOrg);
    expect(read.body.canManage).toBe(false);
    const form = { organization: adminOrg, name: 'Renamed by user', branch: 'PRODUCTION' };
    expect((await api(`/api/device/${adminDevice}`, USER, { method: 'PUT', json: form })).status).toBe(403);
    expect((await api(`/api/device/${adminDevice}`, USER, { method: 'DELETE' })).status).toBe(403);
    expect((await create(USER, { organization: adminOrg, name: 'x' })).status).toBe(403);
    expect((await json(await api('/api/devices?search=gateway', USER))).body.totals.ALL).toBe(1);
    expect((await json(await api('/api/tags', USER))).body).toContain('secret-tag');

    await db
      .update(organizationMembers)
      .set({ role: 'ADMIN' })
      .where(and(eq(organizationMembers.organizationId, adminOrg), eq(organizationMembers.email, USER)));
    expect((await json(await api('/api/device-organizations', USER))).body.map((o: { id: string }) => o.id).sort()).toEqual([userOrg, adminOrg].sort());
    const updated = await json(await api(`/api/device/${adminDevice}`, USER, { method: 'PUT', json: form }));
    expect(updated.status).toBe(200);
    expect(updated.body.name).toBe('Renamed by user');
    expect((await api(`/api/device/${adminDevice}`, USER, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/api/device/${adminDevice}`, ADMIN)).status).toBe(404);
    await db.delete(organizationMembers).where(and(eq(organizationMembers.organizationId, adminOrg), eq(organizationMembers.email, USER)));
  });

  it('deletes a device', async () => {
    const id = (await create(USER, { organization: userOrg, name: 'short-lived' })).body.id;
    expect((await api(`/api/device/${id}`, USER, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/api/device/${id}`, USER)).status).toBe(404);
    expect((await api(`/api/device/${id}`, USER, { method: 'DELETE' })).status).toBe(404);
  });
});

describe('assigned servers', () => {
  it('lists the urls of the servers a device is assigned to, in the detail and in search results', async () => {
    const { body: device } = await create(USER, { organization: userOrg, name: 'server-assigned-probe' });
    expect(device.servers).toEqual([]);
    const [message, proxy] = await c.database.db
      .insert(servers)
      .values([
        { type: 'MESSAGE', url: 'mqtt://broker-b.test:1883', username: 'console', password: 'secret' },
        { type: 'PROXY', url: 'ssh://proxy.test:22', hostKey: 'ssh-ed25519 AAAA' },
      ])
      .returning({ id: servers.id });
    await c.database.db.insert(deviceServers).values([
      { deviceId: device.id, serverId: proxy!.id },
      { deviceId: device.id, serverId: message!.id },
    ]);
    const read = await json(await api(`/api/device/${device.id}`, USER));
    expect(read.status).toBe(200);
    // Ordered by type (MESSAGE before PROXY), url only: no credentials.
    expect(read.body.servers).toEqual([{ url: 'mqtt://broker-b.test:1883' }, { url: 'ssh://proxy.test:22' }]);
    const found = await json(await api('/api/devices?search=server-assigned-probe', USER));
    expect(found.body.devices[0].servers).toEqual([{ url: 'mqtt://broker-b.test:1883' }, { url: 'ssh://proxy.test:22' }]);
    await c.database.db.delete(servers).where(eq(servers.id, proxy!.id));
    expect((await json(await api(`/api/device/${device.id}`, USER))).body.servers).toEqual([{ url: 'mqtt://broker-b.test:1883' }]);
    await c.database.db.delete(servers).where(eq(servers.id, message!.id));
    expect((await api(`/api/device/${device.id}`, USER, { method: 'DELETE' })).status).toBe(204);
  });
});

describe('search, tags and reindex', () => {
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    for (const [name, tags] of [
      ['kiosk-amsterdam', ['kiosk', 'nl']],
      ['kiosk-berlin', ['kiosk', 'de']],
      ['warehouse scanner', ['scanner']],
    ] as const) {
      ids[name] = (await create(ADMIN, { organization: adminOrg, name, tags: [...tags], description: `Device ${name}` })).body.id;
    }
    await setRow(ids['kiosk-berlin']!, {
      online: true,
      properties: { hostname: 'berlin-host-01', 'os.name': 'Debian' },
      addresses: [{ type: 'LOCAL', ip: '10.20.30.40' }],
      lastResponse: new Date(),
      latency: 12,
    });
  });

  const search = async (query: string) => (await json(await api(`/api/devices?${query}`, ADMIN))).body;
  const names = (body: { devices: { name: string }[] }) => body.devices.map((d) => d.name);

  it('finds by name, tag, description, hostname, IP, OS name and id prefix, with counts per tab', async () => {
    expect(names(await search('search=kios'))).toEqual(['kiosk-amsterdam', 'kiosk-berlin']);
    expect(names(await search('search=scann'))).toEqual(['warehouse scanner']);
    expect(names(await search('search=nl'))).toEqual(['kiosk-amsterdam']);
    expect(names(await search('search=berlin-host'))).toEqual(['kiosk-berlin']);
    expect(names(await search('search=10.20.30'))).toEqual(['kiosk-berlin']);
    expect(names(await search('search=debi'))).toEqual(['kiosk-berlin']);
    expect(names(await search('search=KIOSK%20ams'))).toEqual(['kiosk-amsterdam']);
    expect(names(await search(`search=${ids['warehouse scanner']!.slice(0, 8)}`))).toEqual(['warehouse scanner']);
    expect(names(await search(`search=${ids['warehouse scanner']!.slice(0, 13)}`))).toEqual(['warehouse scanner']);
    expect(names(await search(`search=${ids['warehouse scanner']}`))).toEqual(['warehouse scanner']);
    const kiosks = await search('search=kiosk');
    expect(kiosks.totals).toEqual({ ALL: 2, ONLINE: 1, OFFLINE: 1 });
    const online = await search('search=kiosk&status=online');
    expect(names(online)).toEqual(['kiosk-berlin']);
    expect(online.totals).toEqual({ ALL: 2, ONLINE: 1, OFFLINE: 1 });
    expect(names(await search('search=kiosk&status=offline'))).toEqual(['kiosk-amsterdam']);
    expect(online.devices[0]).toMatchObject({ properties: { hostname: 'berlin-host-01' }, addresses: [{ type: 'LOCAL', ip: '10.20.30.40' }], latency: 12 });
    expect(online.devices[0].installationId).toBeUndefined();
  });

  it('treats query syntax as plain text and pages on the server', async () => {
    for (const q of ["'", '&|!():*', 'a:*b', '\\', '%', '(kiosk']) {
      const res = await api(`/api/devices?search=${encodeURIComponent(q)}`, ADMIN);
      expect(res.status, q).toBe(200);
    }
    expect(names(await search('search=(kiosk'))).toHaveLength(2);
    const page0 = await search('size=2&page=0');
    const page1 = await search('size=2&page=1');
    expect(page0.devices).toHaveLength(2);
    expect(page0.totals.ALL).toBe(page1.totals.ALL);
    expect(page1.page).toBe(1);
    expect(names(page0).concat(names(page1))).toEqual(names(await search('size=100')).slice(0, 4));
  });

  it('rejects bad paging and status values with 400', async () => {
    for (const q of ['size=0', 'size=101', 'page=-1', 'page=abc', 'status=sleeping', `search=${'x'.repeat(201)}`]) {
      const res = await json(await api(`/api/devices?${q}`, ADMIN));
      expect(res.status, q).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
  });

  it('suggests the tags of the caller’s devices', async () => {
    const tags = (await json(await api('/api/tags', ADMIN))).body;
    expect(tags).toEqual(expect.arrayContaining(['de', 'kiosk', 'nl', 'scanner']));
    expect(tags).toEqual([...tags].sort());
    expect(new Set(tags).size).toBe(tags.length);
  });

  it('follows every write to a device: rename, status, agent report and delete; a heartbeat leaves it alone', async () => {
    const repo = new DevicesRepository(c.database.db, new InstallationKeys(c.box));
    const id = (await create(ADMIN, { organization: adminOrg, name: 'follow-me', tags: [] })).body.id;
    expect(names(await search('search=follow'))).toEqual(['follow-me']);
    await repo.update(id, { organizationId: adminOrg, name: 'renamed-twice', description: null, branch: 'PRODUCTION', tags: ['moved'] });
    expect(names(await search('search=follow'))).toEqual([]);
    expect(names(await search('search=moved'))).toEqual(['renamed-twice']);
    await setRow(id, { online: true, properties: { hostname: 'follow-host' } });
    expect(await search('search=follow-host')).toMatchObject({ totals: { ALL: 1, ONLINE: 1, OFFLINE: 0 } });
    const version = async () =>
      (await c.database.db.execute<{ v: string }>(sql`select xmin::text as v from device_search where device_id = ${id}`)).rows[0]?.v;
    const before = await version();
    await setRow(id, { lastResponse: new Date(), latency: 7 });
    expect(await version()).toBe(before);
    // Going offline and back changes the search row's status alone (migration 0034); with a new
    // hostname at once, its document too; a search row gone missing is made again.
    await setRow(id, { online: false });
    expect(await search('search=follow-host')).toMatchObject({ totals: { ALL: 1, ONLINE: 0, OFFLINE: 1 } });
    await setRow(id, { online: true, properties: { hostname: 'back-host' } });
    expect(await search('search=follow-host')).toMatchObject({ totals: { ALL: 0 } });
    expect(await search('search=back-host')).toMatchObject({ totals: { ALL: 1, ONLINE: 1, OFFLINE: 0 } });
    await c.database.db.delete(deviceSearch).where(eq(deviceSearch.deviceId, id));
    await setRow(id, { online: false });
    expect(await search('search=back-host')).toMatchObject({ totals: { ALL: 1, ONLINE: 0, OFFLINE: 1 } });
    expect((await api(`/api/device/${id}`, ADMIN, { method: 'DELETE' })).status).toBe(204);
    expect(await search('search=moved')).toMatchObject({ devices: [], totals: { ALL: 0 } });
  });

  it('rebuilds the index for realm ADMIN only', async () => {
    expect((await api('/api/devices-search-reindex', USER)).status).toBe(403);
    await c.database.db.delete(deviceSearch);
    expect((await search('search=kiosk')).totals.ALL).toBe(0);
    const res = await json(await api('/api/devices-search-reindex', ADMIN));
    expect(res.status).toBe(200);
    const [{ n }] = (await c.database.db.execute<{ n: number }>(sql`select count(*)::int as n from devices`)).rows as { n: number }[];
    expect(res.body).toEqual({ indexed: n });
    expect((await search('search=kiosk')).totals.ALL).toBe(2);
  });
});

describe('GET /api/devices-status', () => {
  it("answers the status now of the caller's own devices among those asked for, and leaves the others out", async () => {
    const mine = await create(USER, { organization: userOrg, name: 'status-mine' });
    const theirs = await create(ADMIN, { organization: adminOrg, name: 'status-theirs' });
    await c.database.db.update(devices).set({ online: true, properties: { os: 'linux' } }).where(eq(devices.id, mine.body.id));
    const gone = '00000000-0000-4000-8000-000000000000';
    const { status, body } = await json(await api(`/api/devices-status?ids=${mine.body.id},${theirs.body.id},${gone}`, USER));
    expect(status).toBe(200);
    expect(body).toEqual([{ id: mine.body.id, name: 'status-mine', online: true, installed: true }]);
    expect((await json(await api(`/api/devices-status?ids=${theirs.body.id}`, ADMIN))).body).toEqual([{ id: theirs.body.id, name: 'status-theirs', online: false, installed: false }]);

    const bad = await json(await api('/api/devices-status?ids=1,2', USER));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('ids must be device ids separated by commas.');
    expect((await json(await api(`/api/devices-status?ids=${Array(21).fill(gone).join(',')}`, USER))).body.message).toBe('At most 20 devices at once.');
    expect((await api(`/api/devices-status?ids=${gone}`, undefined)).status).toBe(401);
  });
});
