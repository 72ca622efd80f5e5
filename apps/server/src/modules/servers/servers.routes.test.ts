import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestConsole, type TestConsole } from '../../testing/test-console.js';

const proxy = { type: 'PROXY', url: 'ssh://proxy.example.com:2222', maxCapacity: 50, status: 'ONLINE', password: 'proxy-password', hostKey: 'ssh-ed25519 AAAA' };

describe('servers API', () => {
  let tc: TestConsole;
  let admin: string;
  let user: string;

  beforeAll(async () => {
    tc = await startTestConsole({ MQTT_EMBEDDED_PORT: '0' });
    admin = await tc.token('admin@fleetlink.local');
    user = await tc.token('user@fleetlink.local');
  });
  afterAll(async () => tc?.close());

  it('is for realm ADMIN only', async () => {
    expect((await tc.api('/api/servers', { token: user })).status).toBe(403);
    expect((await tc.api('/api/servers')).status).toBe(401);
    expect((await tc.api('/api/server', { token: user, method: 'POST', json: proxy })).status).toBe(403);
  });

  it('validates with the spec messages, by type', async () => {
    const res = await tc.api('/api/server', { token: admin, method: 'POST', json: { type: 'MESSAGE', url: 'mqtts://mq.example.com:8883', maxCapacity: 0, status: 'ONLINE' } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.fields).toEqual({
      maxCapacity: 'Max capacity must be at least 1.',
      username: 'Username is required.',
      password: 'Password is required.',
      trustStore: 'Trust store is required.',
      trustStorePassword: 'Trust store password is required.',
      blobBaseUrl: 'Blob base URL is required.',
    });
    // Issue 59: a plain mqtt:// or ws:// link has no certificate to check, so no trust store.
    for (const url of ['mqtt://mq.example.com:1883', 'ws://mq.example.com:80/mqtt']) {
      const plain = await tc.api('/api/server', { token: admin, method: 'POST', json: { type: 'MESSAGE', url, maxCapacity: 0, status: 'ONLINE' } });
      expect(Object.keys((await plain.json()).fields).sort(), url).toEqual(['blobBaseUrl', 'maxCapacity', 'password', 'username']);
    }
    const plainSaved = await tc.api('/api/server', {
      token: admin,
      method: 'POST',
      json: { type: 'MESSAGE', url: 'mqtt://mq.example.com:1883', maxCapacity: 1, status: 'OFFLINE', username: 'console', password: 'secret', blobBaseUrl: 'http://localhost' },
    });
    expect(plainSaved.status).toBe(201);
    const plainServer = await plainSaved.json();
    expect(plainServer).toMatchObject({ trustStore: null, trustStorePasswordSet: false });
    expect((await tc.api(`/api/server/${plainServer.id}`, { token: admin, method: 'DELETE' })).status).toBe(204);
    // A proxy signs in with its password: it cannot be registered without one.
    const noPassword = await tc.api('/api/server', { token: admin, method: 'POST', json: { ...proxy, password: '' } });
    expect((await noPassword.json()).fields).toEqual({ password: 'Password is required.' });
    const noPort = await tc.api('/api/server', { token: admin, method: 'POST', json: { ...proxy, url: 'proxy.example.com' } });
    expect((await noPort.json()).fields.url).toBe('URL is not a valid, it contain invalid characters.');
    const message = { type: 'MESSAGE', maxCapacity: 1, status: 'ONLINE', username: 'console', password: 'secret', trustStore: 'AAAA', trustStorePassword: 'store', blobBaseUrl: 'http://localhost' };
    for (const url of ['http://mq.example.com:1883', 'ssh://mq.example.com:22', 'tcp://mq.example.com:1883']) {
      const res = await tc.api('/api/server', { token: admin, method: 'POST', json: { ...message, url } });
      expect(res.status, url).toBe(400);
      expect((await res.json()).fields.url, url).toBe('URL of a message server must start with mqtt://, mqtts://, ws:// or wss://.');
    }
    for (const url of ['mqtt://mq.example.com:1883', 'mqtts://mq.example.com:8883', 'ws://mq.example.com:80/mqtt', 'WSS://mq.example.com:443']) {
      const res = await tc.api('/api/server', { token: admin, method: 'POST', json: { ...message, url, status: 'OFFLINE' } });
      expect(res.status, url).toBe(201);
      expect((await tc.api(`/api/server/${(await res.json()).id}`, { token: admin, method: 'DELETE' })).status).toBe(204);
    }
    const mqttProxy = await tc.api('/api/server', { token: admin, method: 'POST', json: { ...proxy, url: 'mqtt://proxy.example.com:2222' } });
    expect((await mqttProxy.json()).fields.url).toBe('URL of a proxy server must start with ssh://.');
    const noKey = await tc.api('/api/server', { token: admin, method: 'POST', json: { ...proxy, hostKey: '' } });
    expect((await noKey.json()).fields.hostKey).toBe('Host key is required.');
  });

  it('creates, reads, updates and deletes a server', async () => {
    const created = await tc.api('/api/server', { token: admin, method: 'POST', json: proxy });
    expect(created.status).toBe(201);
    const server = await created.json();
    expect(server).toMatchObject({ type: 'PROXY', maxCapacity: 50, devicesCount: 0, organization: null, connected: null });
    const updated = await tc.api(`/api/server/${server.id}`, { token: admin, method: 'PUT', json: { ...proxy, status: 'OFFLINE', notes: 'down for maintenance' } });
    expect(await updated.json()).toMatchObject({ status: 'OFFLINE', notes: 'down for maintenance' });
    expect((await (await tc.api('/api/servers', { token: admin })).json()).map((s: { id: string }) => s.id)).toContain(server.id);
    expect((await tc.api(`/api/server/${server.id}`, { token: admin, method: 'DELETE' })).status).toBe(204);
    expect((await tc.api(`/api/server/${server.id}`, { token: admin })).status).toBe(404);
    expect((await tc.api('/api/server/not-an-id', { token: admin })).status).toBe(400);
  });

  it('rejects an unknown organization and reloads hub connections', async () => {
    const res = await tc.api('/api/server', { token: admin, method: 'POST', json: { ...proxy, organization: '00000000-0000-4000-8000-000000000000' } });
    expect(res.status).toBe(400);
    expect((await res.json()).fields.organization).toBe('Organization not found.');
    const reload = await tc.api('/api/servers-reload', { token: admin });
    expect(await reload.json()).toEqual({ connections: 0 });
  });
});
