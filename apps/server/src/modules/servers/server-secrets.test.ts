import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startTestConsole, type TestConsole } from '../../testing/test-console.js';
import { loadOrCreateSetting } from '../system/console-secrets.js';
import { ServersRepository } from './servers.repository.js';

const ADMIN = 'admin@fleetlink.local';
const message = {
  type: 'MESSAGE',
  url: 'mqtt://mq.example.com:1883',
  maxCapacity: 10,
  status: 'OFFLINE',
  username: 'console',
  password: 'pw-typed-by-admin-1',
  trustStore: 'AAAA',
  trustStorePassword: 'store-pw-typed-2',
  blobBaseUrl: 'http://blobs.example.com',
};

/** Every GET of the API an administrator can call without an id, and the ones of each server. */
async function everyAdminAnswer(tc: TestConsole, admin: string, serverIds: string[]): Promise<Record<string, string>> {
  const doc = await (await tc.api('/api/docs/json')).json();
  const paths = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
    .filter(([p, ops]) => ops.get && !p.includes('{'))
    .map(([p]) => p)
    .concat(serverIds.map((id) => `/api/server/${id}`));
  const answers: Record<string, string> = {};
  for (const p of paths) answers[p] = await (await tc.api(p, { token: admin })).text();
  return answers;
}

/** Issue 58: a password is written to the console and never answered, not even to a realm ADMIN. */
describe('server secrets are write-only', () => {
  let tc: TestConsole;
  let admin: string;
  let repo: ServersRepository;

  beforeAll(async () => {
    tc = await startTestConsole({ MQTT_EMBEDDED_PORT: String(await freePort()), TUNNEL_SSH_PORT: String(await freePort()), TUNNEL_HTTP_PORT: String(await freePort()) });
    admin = await tc.token('admin@fleetlink.local');
    repo = new ServersRepository(tc.database.db, tc.box);
  });
  afterAll(async () => tc?.close());

  it('answers whether a password is set, never the password, and keeps it when the form leaves it blank', async () => {
    const created = await tc.call(ADMIN, 'POST', '/api/server', message);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ passwordSet: true, trustStorePasswordSet: true, builtIn: false, username: 'console' });
    const id = created.body.id as string;
    for (const answer of [JSON.stringify(created.body), await (await tc.api('/api/servers', { token: admin })).text(), await (await tc.api(`/api/server/${id}`, { token: admin })).text()]) {
      expect(answer).not.toContain(message.password);
      expect(answer).not.toContain(message.trustStorePassword);
      expect(answer).not.toMatch(/"password"|"trustStorePassword"/);
    }

    // The edit form sends the secrets blank: the console keeps them.
    const kept = await tc.call(ADMIN, 'PUT', `/api/server/${id}`, { ...message, password: '', trustStorePassword: '', notes: 'kept' });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ passwordSet: true, trustStorePasswordSet: true, notes: 'kept' });
    expect(await repo.findById(id)).toMatchObject({ password: message.password, trustStorePassword: message.trustStorePassword });
    // Typed, it replaces the one set.
    await tc.call(ADMIN, 'PUT', `/api/server/${id}`, { ...message, password: 'replaced-3', trustStorePassword: '' });
    expect(await repo.findById(id)).toMatchObject({ password: 'replaced-3', trustStorePassword: message.trustStorePassword });

    // A new message server still needs both, and so does a proxy turned into one (its sign-in password is not kept for a broker).
    const blank = await tc.call(ADMIN, 'POST', '/api/server', { ...message, password: '' });
    expect(blank.status).toBe(400);
    expect(blank.body.fields).toMatchObject({ password: 'Password is required.' });
    const proxy = await tc.call(ADMIN, 'POST', '/api/server', { type: 'PROXY', url: 'ssh://p.example.com:2222', maxCapacity: 1, status: 'OFFLINE', password: 'proxy-pw-1', hostKey: 'ssh-ed25519 AAAA' });
    const turned = await tc.call(ADMIN, 'PUT', `/api/server/${proxy.body.id}`, { ...message, url: 'mqtts://mq.example.com:8883', password: '', trustStorePassword: '' });
    expect(turned.status).toBe(400);
    expect(turned.body.fields).toEqual({ password: 'Password is required.', trustStorePassword: 'Trust store password is required.' });
    for (const s of [id, proxy.body.id]) expect((await tc.api(`/api/server/${s}`, { token: admin, method: 'DELETE' })).status).toBe(204);
  });

  it("shows the built-in broker and proxy as built in, with the console's own credentials nowhere in any answer", async () => {
    const servers = (await tc.call(ADMIN, 'GET', '/api/servers')).body as { id: string; type: string; builtIn: boolean; passwordSet: boolean }[];
    const builtIn = servers.filter((s) => s.builtIn);
    expect(builtIn.map((s) => s.type).sort()).toEqual(['MESSAGE', 'PROXY']);
    expect(builtIn.every((s) => s.passwordSet)).toBe(true);
    expect(JSON.stringify(builtIn)).not.toContain('fleetlink-console');
    const consoleAccount = await loadOrCreateSetting<{ password: string }>(tc.database.db, tc.box, 'embeddedConsoleAccount', () => ({ password: 'never made here' }));
    const proxyAccount = await loadOrCreateSetting<{ password: string; hostKey: string }>(tc.database.db, tc.box, 'embeddedProxy', () => ({ password: 'never', hostKey: 'never' }));
    const answers = await everyAdminAnswer(tc, admin, servers.map((s) => s.id));
    expect(Object.keys(answers).length).toBeGreaterThan(20);
    for (const [p, text] of Object.entries(answers)) {
      expect(text, p).not.toContain(consoleAccount.password);
      expect(text, p).not.toContain(proxyAccount.password);
      expect(text, p).not.toContain(proxyAccount.hostKey.split('\n')[1]!);
    }
  });

  it("lets an administrator change a built-in server's capacity, status and notes, and nothing that is the console's", async () => {
    const servers = (await tc.call(ADMIN, 'GET', '/api/servers')).body as { id: string; type: string; url: string; builtIn: boolean; username: string; hostKey: string | null; trustStore: string | null; blobBaseUrl: string | null }[];
    const broker = servers.find((s) => s.builtIn && s.type === 'MESSAGE')!;
    // As the edit page sends it: the console's own fields as answered (its username is not), blank.
    expect(broker.username).toBeNull();
    const form = { type: broker.type, url: broker.url, maxCapacity: 7, status: 'ONLINE', notes: 'ours', username: '', password: '', trustStore: broker.trustStore ?? '', trustStorePassword: '', blobBaseUrl: broker.blobBaseUrl ?? '' };
    const changed = await tc.call(ADMIN, 'PUT', `/api/server/${broker.id}`, form);
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ maxCapacity: 7, notes: 'ours', builtIn: true, connected: true });

    // Setting the console's password to one of their own would let a person connect as the console.
    const mine = await tc.call(ADMIN, 'PUT', `/api/server/${broker.id}`, { ...form, password: 'mine-now' });
    expect(mine.status).toBe(400);
    expect(mine.body.message).toBe('A built-in server is started with the console: only its max capacity, status and notes can change.');
    expect(mine.body.fields).toHaveProperty('password');
    for (const change of [{ url: 'mqtt://127.0.0.1:1' }, { username: 'someone' }, { type: 'PROXY', hostKey: 'ssh-ed25519 AAAA' }]) {
      const refused = await tc.call(ADMIN, 'PUT', `/api/server/${broker.id}`, { ...form, ...change });
      expect(refused.status, JSON.stringify(change)).toBe(400);
    }
    const mqttUrl = new URL(broker.url);
    const refusedLogin = await mqtt
      .connectAsync(`mqtt://${mqttUrl.host}`, { username: 'fleetlink-console', password: 'mine-now', protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000 })
      .then((c) => c.endAsync().then(() => 'connected'), (err: Error) => err.message);
    expect(refusedLogin).toMatch(/Not authorized|Bad username or password/);
  });

  it('gives the console its own account back where an older console let an administrator change it', async () => {
    const broker = ((await tc.call(ADMIN, 'GET', '/api/servers')).body as { id: string; type: string; builtIn: boolean }[]).find((s) => s.builtIn && s.type === 'MESSAGE')!;
    await repo.update(broker.id, { username: 'edited', password: 'typed-by-a-person', builtIn: false });
    await tc.restart();
    repo = new ServersRepository(tc.database.db, tc.box);
    const after = await repo.findById(broker.id);
    expect(after).toMatchObject({ builtIn: true, username: 'fleetlink-console' });
    expect(after!.password).not.toBe('typed-by-a-person');
    expect((await tc.call(ADMIN, 'GET', `/api/server/${broker.id}`)).body).toMatchObject({ connected: true });
  });
});
