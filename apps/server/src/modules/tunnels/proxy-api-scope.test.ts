import { proxyRoutes } from '@fleetlink/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tunnels } from '../../db/schema/index.js';
import { freePort } from '../../testing/test-console.js';
import { ADMIN_EMAIL, embeddedSetup, enrollByHand, memberDevice, tearDown, type MessagingSetup } from '../broker/broker.test-support.js';
import { loadOrCreateSetting } from '../system/console-secrets.js';
import { createTunnel } from './tunnel-api.test-support.js';

/**
 * Issue 58: a proxy's account answers only for the devices assigned to that proxy. Another proxy's
 * password (one a person typed into the Servers page) learns nothing of them and cannot put a
 * link of its choosing on their Network tab; the proxy they are on cannot either.
 */
describe("the proxy API answers a proxy only for its own devices' tunnels", () => {
  let s: MessagingSetup;
  let device: { id: string };
  let tunnelId: string;
  let credential: string;
  const builtIn = { id: '', password: '' };
  const other = { id: '', password: 'another-proxy-typed-by-an-admin' };

  const call = (as: { id: string; password: string }, route: { path: string }, json: object) =>
    fetch(`${s.tc.url}${route.path}`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${as.id}:${as.password}`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
  /** As stored: the Network tab shows it while the device is online (no agent runs here). */
  const mapping = async () => (await s.tc.database.db.select({ mapping: tunnels.mapping }).from(tunnels).where(eq(tunnels.id, tunnelId)))[0]!.mapping;

  beforeAll(async () => {
    s = await embeddedSetup({ TUNNEL_SSH_PORT: String(await freePort()), TUNNEL_HTTP_PORT: String(await freePort()) });
    builtIn.id = s.tc.proxy!.serverId;
    builtIn.password = (await loadOrCreateSetting<{ password: string }>(s.tc.database.db, s.tc.box, 'embeddedProxy', () => ({ password: 'never' }))).password;
    const dev = await memberDevice(s.tc.database.db, 'scoped');
    const account = await enrollByHand(s.tc, dev);
    device = dev;
    // Registered after the device was assigned to the built-in proxy, and taking no new devices.
    const registered = await s.tc.call(ADMIN_EMAIL, 'POST', '/api/server', { type: 'PROXY', url: 'ssh://edge.example.com:2222', maxCapacity: 10, status: 'OFFLINE', password: other.password, hostKey: 'ssh-ed25519 AAAA' });
    other.id = registered.body.id;
    const tunnel = await createTunnel(s.tc, await s.tc.token(ADMIN_EMAIL), dev.id, { name: 'shop', type: 'HTTP', port: 8080, mode: 'EPHEMERAL', path: 'shop-scope', securityUsername: 'u', securityPassword: 'secret-pw' });
    tunnelId = tunnel.id;
    const login = await call(other, proxyRoutes.deviceLogin, { username: account.username, password: account.password });
    credential = (await login.json()).credential;
  });
  afterAll(() => tearDown(s, { agents: [], dirs: [] }));

  it("refuses another proxy the device's tunnel credentials", async () => {
    const refused = await call(other, proxyRoutes.forward, { deviceId: device.id, port: 8080, credential });
    expect(refused.status).toBe(403);
    const text = await refused.text();
    expect(text).not.toMatch(/scrypt|passwordHash/);
    expect(JSON.parse(text).message).toBe('The device is assigned to another tunnel proxy.');
    const own = await call(builtIn, proxyRoutes.forward, { deviceId: device.id, port: 8080, credential });
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ tunnelId, username: 'u' });
  });

  it("lets no proxy report a state for another proxy's device, nor a mapping that is not the tunnel's address", async () => {
    const report = { deviceId: device.id, tunnelId, state: 'CONNECTED' };
    const fromOther = await call(other, proxyRoutes.state, { ...report, mapping: 'http://shop-scope.localhost' });
    expect(fromOther.status).toBe(403);
    expect(await mapping()).toBeNull();

    const evil = await call(builtIn, proxyRoutes.state, { ...report, mapping: 'https://evil.example/login' });
    expect(evil.status).toBe(400);
    expect((await evil.json()).message).toBe("The mapping is not the tunnel's address on this proxy's domain or its organization's custom domain.");
    expect(await mapping()).toBeNull();

    const domain = s.tc.env.TUNNEL_DOMAIN;
    const own = await call(builtIn, proxyRoutes.state, { ...report, mapping: `http://shop-scope.${domain}:${s.tc.env.TUNNEL_HTTP_PORT}` });
    expect(own.status).toBe(204);
    expect(await mapping()).toBe(`http://shop-scope.${domain}:${s.tc.env.TUNNEL_HTTP_PORT}`);
    // A disconnection from a proxy that does not serve it changes nothing.
    expect((await call(other, proxyRoutes.state, { ...report, state: 'DISCONNECTED', mapping: null })).status).toBe(204);
    expect(await mapping()).not.toBeNull();
  });
});
