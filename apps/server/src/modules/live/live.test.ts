import { createServer, type AddressInfo, type Socket } from 'node:net';
import { LiveClose, type Server } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useKeycloakConsole } from '../../testing/keycloak-console.test-support.js';
import {
  embeddedSetup,
  onlineMemberDevice,
  spawnAgent,
  tearDown,
  ADMIN_EMAIL,
  USER_EMAIL,
  type AgentProcess,
  type MessagingSetup,
  type OnlineMemberDevice,
} from '../broker/broker.test-support.js';
import { openLive, sawOnline, type LiveClient } from './live.test-support.js';
import { manifest, tarGz } from '../releases/bundle-archives.test-support.js';

/** The agent's MQTT keep-alive is at least 5 s; its will is sent at once when its socket closes. */
const KEEPALIVE_MS = 5000;

describe.skipIf(process.platform !== 'linux')('live updates (issue 61)', () => {
  let s: MessagingSetup;
  let d: OnlineMemberDevice;
  const cleanup = { agents: [] as AgentProcess[], dirs: [] as string[] };
  const streams: LiveClient[] = [];
  const live = async (token: string | null, o?: Parameters<typeof openLive>[2]) => {
    const client = await openLive(s.tc.url, token, o);
    streams.push(client);
    return client;
  };

  beforeAll(async () => {
    s = await embeddedSetup();
    d = await onlineMemberDevice(s, 'live device', cleanup);
  }, 60_000);

  afterAll(async () => {
    streams.forEach((c) => c.close());
    await tearDown(s, cleanup);
  });

  it('refuses a socket opened by another site, or with no Origin, before it is upgraded', async () => {
    await expect(live(d.user, { origin: 'https://evil.example' })).rejects.toMatchObject({ status: 403 });
    await expect(live(d.user, { origin: null })).rejects.toMatchObject({ status: 403, body: expect.stringContaining('Origin') });
  });

  it('closes a socket whose first message is not a valid access token', async () => {
    const none = await live(null, { hello: '{}' });
    expect(await none.closed).toMatchObject({ code: LiveClose.Unauthorized });
    const forged = await live(`${d.user.slice(0, -4)}AAAA`);
    expect(await forged.closed).toMatchObject({ code: LiveClose.Unauthorized, reason: 'The access token is not valid.' });
    expect(none.messages.concat(forged.messages)).toEqual([]);
  });

  it("tells members at once when the device's agent dies and when it comes back; a non-member hears nothing", async () => {
    const member = await live(d.user);
    const stranger = await live(d.guest);
    expect(member.messages[0]).toMatchObject({ type: 'ready' });

    const killedAt = Date.now();
    await d.agent.kill();
    await member.next(sawOnline(false, d.device.id), KEEPALIVE_MS + 1000);
    expect(Date.now() - killedAt).toBeLessThan(KEEPALIVE_MS + 1000);

    const startedAt = Date.now();
    const from = member.messages.length;
    const again = spawnAgent({ server: s.tc.url, device: d.device.id, dataDir: cleanup.dirs.at(-1)! });
    cleanup.agents.push(again);
    await member.next(sawOnline(true, d.device.id), 15_000, from);
    const online = Date.now() - startedAt;
    // Properties follow the connection (often in the same message).
    await member.next((m) => m.type === 'devices' && m.changes.some((c) => c.id === d.device.id && c.parts.includes('reported')), 10_000, from);
    expect(online).toBeLessThan(15_000);
    expect(stranger.changes().filter((c) => c.id === d.device.id)).toEqual([]);
    expect(stranger.messages.map((m) => m.type)).toEqual(['ready']);
  }, 40_000);

  it('tells members of a change a person made, and a member removed hears nothing more of the organization', async () => {
    const member = await live(d.user);
    const admin = await live(d.admin);
    const rename = (name: string) => s.tc.call(ADMIN_EMAIL, 'PUT', `/api/device/${d.device.id}`, { name, tags: [], branch: 'PRODUCTION', organization: d.device.organizationId });
    expect((await rename('renamed once')).status).toBe(200);
    await member.next((m) => m.type === 'devices' && m.changes.some((c) => c.id === d.device.id && c.parts.includes('settings')));

    const org = (await s.tc.call(ADMIN_EMAIL, 'GET', `/api/organization/${d.device.organizationId}`)).body;
    const membership = org.users.find((u: { email: string }) => u.email === USER_EMAIL);
    expect((await s.tc.call(ADMIN_EMAIL, 'DELETE', `/api/organization/${d.device.organizationId}/user/${membership.id}`)).status).toBe(204);
    // The removed member's page is told to read again (and its reads now say the device is not found).
    await member.next((m) => m.type === 'resync');
    const [from, adminFrom] = [member.messages.length, admin.messages.length];
    expect((await rename('renamed twice')).status).toBe(200);
    await admin.next((m) => m.type === 'devices' && m.changes.some((c) => c.id === d.device.id && c.parts.includes('settings')), 5000, adminFrom);
    await new Promise((r) => setTimeout(r, 500));
    expect(member.messages.slice(from)).toEqual([]);
  });

  it('sends server and release changes to realm administrators only', async () => {
    const admin = await live(d.admin);
    const member = await live(d.guest);
    expect((await s.tc.call(ADMIN_EMAIL, 'GET', '/api/servers-reload')).status).toBeLessThan(300);
    await admin.next((m) => m.type === 'servers');
    // A release (rolled back at once, so no device is offered it): the releases pages read again (issue 65).
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(tarGz([manifest('fleetlink-agent', '8.0.0'), { path: 'cli.mjs', body: 'export {}' }]))]), 'bundle.tar.gz');
    expect((await s.tc.api('/api/bundle', { method: 'POST', token: await s.tc.token(ADMIN_EMAIL), body: form })).status).toBe(201);
    expect((await s.tc.call(ADMIN_EMAIL, 'POST', '/api/release', { branch: 'TEST', version: '8.0.0', bundles: [{ name: 'fleetlink-agent', version: '8.0.0' }] })).status).toBe(201);
    await admin.next((m) => m.type === 'releases');
    const from = admin.messages.length;
    expect((await s.tc.call(ADMIN_EMAIL, 'POST', '/api/release/TEST/8.0.0/rollout/rollback')).status).toBe(204);
    await admin.next((m) => m.type === 'releases', 3000, from);
    await new Promise((r) => setTimeout(r, 500));
    expect(member.messages.map((m) => m.type)).toEqual(['ready']);
  });

  it("tells realm administrators when this console's connection to a message server changes, with nobody acting", async () => {
    // A server that takes the connection and never answers it: mqtt.js gives up after its 10 s
    // connect deadline, and the server turns from connecting to unreachable on its own.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const admin = await live(d.admin);
    try {
      const made = await s.tc.call(ADMIN_EMAIL, 'POST', '/api/server', {
        type: 'MESSAGE',
        url: `mqtt://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        maxCapacity: 10,
        status: 'ONLINE',
        username: 'console',
        password: 'a-password',
        blobBaseUrl: 'http://127.0.0.1:9/blobs',
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const stateOf = async () => {
        const servers: Server[] = (await s.tc.call(ADMIN_EMAIL, 'GET', '/api/servers')).body;
        return servers.find((x) => x.id === made.body.id)?.connection;
      };
      // Each message makes the page ask again; the last one before the deadline must show the change.
      let from = 0;
      let seen = await stateOf();
      expect(seen?.state).toBe('CONNECTING');
      const until = Date.now() + 15_000;
      while (seen?.state !== 'UNREACHABLE') {
        await admin.next((m) => m.type === 'servers', until - Date.now(), from);
        from = admin.messages.length;
        seen = await stateOf();
      }
      expect(seen).toMatchObject({ state: 'UNREACHABLE', error: 'no answer' });
      expect((await s.tc.call(ADMIN_EMAIL, 'DELETE', `/api/server/${made.body.id}`)).status).toBe(204);
    } finally {
      sockets.forEach((socket) => socket.destroy());
      silent.close();
    }
  }, 30_000);

  it('takes a personal API token as its owner, and refuses a revoked one with the reason (issue 62)', async () => {
    const made = await s.tc.call(ADMIN_EMAIL, 'POST', '/api/api-tokens', { name: 'live script', scope: 'READ', organizations: [d.device.organizationId] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const script = await live(made.body.secret);
    expect(script.messages).toEqual([{ type: 'ready', expiresAt: null }]);
    const from = script.messages.length;
    const renamed = await s.tc.call(ADMIN_EMAIL, 'PUT', `/api/device/${d.device.id}`, { name: 'live device', tags: ['scripted'], branch: 'PRODUCTION', organization: d.device.organizationId });
    expect(renamed.status).toBe(200);
    await script.next((m) => m.type === 'devices' && m.changes.some((c) => c.id === d.device.id && c.parts.includes('settings')), 3000, from);

    expect((await s.tc.call(ADMIN_EMAIL, 'DELETE', `/api/api-tokens/${made.body.id}`)).status).toBe(204);
    const refused = await live(made.body.secret);
    expect((await refused.closed).reason).toMatch(/^This API token was revoked on /);
  });
});

describe('live updates and the access token', () => {
  const keycloak = useKeycloakConsole();

  it('refuses an expired token, and ends the stream when its token expires', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await openLive(keycloak.console.url, await keycloak.kc.sign({ exp: now - 60 }));
    expect(await expired.closed).toEqual({ code: LiveClose.Unauthorized, reason: 'The access token has expired. Sign in again.' });

    const shortLived = await openLive(keycloak.console.url, await keycloak.kc.sign({ exp: now + 2 }));
    expect(shortLived.messages).toEqual([{ type: 'ready', expiresAt: new Date((now + 2) * 1000).toISOString() }]);
    expect(await shortLived.closed).toEqual({ code: LiveClose.Unauthorized, reason: 'The access token expired.' });
  });

  it('closes the open sockets at once when the console stops (they would hold its stop for a minute)', async () => {
    const open = await openLive(keycloak.console.url, await keycloak.kc.sign({}));
    expect(open.messages.map((m) => m.type)).toEqual(['ready']);
    const stopping = Date.now();
    await keycloak.console.stop();
    expect(await open.closed).toEqual({ code: LiveClose.GoingAway, reason: 'The console is stopping.' });
    expect(Date.now() - stopping).toBeLessThan(3000);
  });
});
