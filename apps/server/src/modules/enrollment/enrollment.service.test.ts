import mqtt from 'mqtt';
import { agentClientId } from '@fleetlink/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../../db/schema/index.js';
import { freePort, type TestConsole } from '../../testing/test-console.js';
import { createDevice, startAgentTestConsole, waitFor } from '../broker/broker.test-support.js';
import { ServersRepository } from '../servers/servers.repository.js';

/**
 * Issue 4, assignment: an ONLINE message server the console's hub cannot reach is passed over for
 * new devices, however lightly loaded, as long as another eligible server can be reached.
 */
describe('enrollment with an unreachable message server', () => {
  let tc: TestConsole;
  let admin: string;
  let repo: ServersRepository;
  let embeddedId: string;
  let deadId: string;

  const enroll = (dev: { id: string; key: string }) => tc.api('/api/agent/enroll', { method: 'POST', json: { deviceId: dev.id, key: dev.key } });
  const messageServerOf = async (deviceId: string) => (await repo.assignments(deviceId)).filter((s) => s.type === 'MESSAGE').map((s) => s.id);

  /** A MESSAGE server on a port nobody listens on: registered ONLINE, never connected. */
  async function registerDeadServer(organization?: string): Promise<string> {
    const res = await tc.api('/api/server', {
      token: admin,
      method: 'POST',
      json: {
        type: 'MESSAGE',
        url: `mqtt://127.0.0.1:${await freePort()}`,
        maxCapacity: 100,
        status: 'ONLINE',
        organization,
        username: 'console',
        password: 'secret',
        trustStore: Buffer.from('not used for mqtt://').toString('base64'),
        trustStorePassword: 'changeit',
        blobBaseUrl: 'http://127.0.0.1:9/blobs',
      },
    });
    expect(res.status).toBe(201);
    const id = (await res.json()).id as string;
    // Registering recreates every hub connection: the embedded one is back within moments.
    await waitFor(() => tc.messaging!.hub.isConnected(embeddedId), 10_000, 'hub reconnected to the embedded broker');
    expect(tc.messaging!.hub.isConnected(id)).toBe(false);
    return id;
  }

  beforeAll(async () => {
    tc = await startAgentTestConsole({ ENROLL_RATE_LIMIT: '50' });
    admin = await tc.token('admin@fleetlink.local');
    repo = new ServersRepository(tc.database.db, tc.box);
    embeddedId = tc.messaging!.embeddedServerId!;
    await waitFor(() => tc.messaging!.hub.isConnected(embeddedId), 10_000, 'hub connected to the embedded broker');
    // One device on the embedded server, so an empty second server is the less loaded one.
    const first = await createDevice(tc.database.db);
    expect((await enroll(first)).status).toBe(200);
    deadId = await registerDeadServer();
  });

  afterAll(async () => tc?.close());

  it('assigns a new device to the reachable server although the unreachable one is less loaded, and it enrolls', async () => {
    const dev = await createDevice(tc.database.db);
    const load = Object.fromEntries(
      ((await (await tc.api('/api/servers', { token: admin })).json()) as { id: string; devicesCount: number; connected: boolean }[]).map((s) => [s.id, s]),
    );
    expect(load[embeddedId]).toMatchObject({ devicesCount: 1, connected: true });
    expect(load[deadId]).toMatchObject({ devicesCount: 0, connected: false });
    expect((await repo.accepting('MESSAGE', dev.organizationId))[0]!.id).toBe(deadId);

    const res = await enroll(dev);
    expect(res.status).toBe(200);
    const body = await res.json();
    const message = body.servers.find((s: { type: string }) => s.type === 'MESSAGE');
    expect(message.id).toBe(embeddedId);
    expect(await messageServerOf(dev.id)).toEqual([embeddedId]);
    // The credentials it got work on the server it got.
    const client = await mqtt.connectAsync(message.url, { username: body.mqtt.username, password: body.mqtt.password, protocolVersion: 4, reconnectPeriod: 0, clientId: agentClientId(body.deviceId) });
    await client.endAsync(true);
  });

  it('moves a device that never came online off its unreachable server when its agent enrolls again', async () => {
    const dev = await createDevice(tc.database.db);
    // As if it had enrolled while the dead server was still the pick.
    await repo.assign(dev.id, deadId);
    const res = await enroll(dev);
    expect(res.status).toBe(200);
    expect((await res.json()).servers.map((s: { id: string }) => s.id)).toEqual([embeddedId]);
    expect(await messageServerOf(dev.id)).toEqual([embeddedId]);
  });

  it('keeps a device that has been online on its server through an outage, with a clear error', async () => {
    const dev = await createDevice(tc.database.db);
    await repo.assign(dev.id, deadId);
    await tc.database.db.update(devices).set({ lastResponse: new Date() }).where(eq(devices.id, dev.id));
    const res = await enroll(dev);
    expect(res.status).toBe(503);
    expect((await res.json()).message).toBe('The message server is not reachable right now.');
    expect(await messageServerOf(dev.id)).toEqual([deadId]);
  });

  it("keeps to an organization's private servers even when none of them can be reached", async () => {
    const dev = await createDevice(tc.database.db);
    await registerDeadServer(dev.organizationId);
    const res = await enroll(dev);
    // Its private server was the pick (the shared, reachable one would have enrolled it) ...
    expect(res.status).toBe(503);
    expect((await res.json()).message).toBe('The message server is not reachable right now.');
    // ... and a failed enrollment stores nothing, the assignment included.
    expect(await messageServerOf(dev.id)).toEqual([]);
  });
});
