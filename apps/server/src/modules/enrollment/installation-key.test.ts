import { rmSync } from 'node:fs';
import mqtt from 'mqtt';
import { agentClientId, deviceSchema } from '@fleetlink/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceCredentials } from '../../db/schema/index.js';
import type { TestConsole } from '../../testing/test-console.js';
import {
  ADMIN_EMAIL,
  createDevice,
  deviceRow,
  embeddedSetup,
  enrollByHand,
  memberDevice as createMemberDevice,
  mosquittoBin,
  mosquittoSetup,
  runAgentOnline,
  spawnAgent,
  startAgentTestConsole,
  tempDir,
  tearDown,
  USER_EMAIL,
  waitFor,
  type AgentProcess,
  type MessagingSetup,
} from '../broker/broker.test-support.js';

const bin = mosquittoBin();
const ADMIN = ADMIN_EMAIL;
const USER = USER_EMAIL;
const KEY_USED =
  'This installation key has already enrolled the device. To enroll it again, a creator or administrator of its organization resets the key on the Install page.';

/** Whether a broker takes these credentials (one attempt, no retries). */
async function brokerAccepts(account: { url: string; username: string; password: string }, deviceId: string): Promise<boolean> {
  const client = await mqtt
    .connectAsync(account.url, { ...account, clientId: agentClientId(deviceId), protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000 })
    .catch(() => undefined);
  await client?.endAsync(true);
  return !!client;
}

/**
 * Issue 23: reading a device is not owning it. The key is for managers; a used key enrolls
 * nothing until a manager resets it, which retires the agent's account and disconnects it; and an
 * enrollment stores nothing until the broker has the account.
 */
function installationKeySuite(setup: () => Promise<MessagingSetup>, withAccounts: boolean) {
  let s: MessagingSetup;
  let admin: string;
  let user: string;
  const agents: AgentProcess[] = [];
  const dirs: string[] = [];

  const memberDevice = (name: string) => createMemberDevice(s.tc.database.db, name);
  const runAgent = (dev: { id: string; key: string }) => runAgentOnline(s.tc, dev, { agents, dirs });

  const readDevice = async (id: string, token: string) => deviceSchema.parse(await (await s.tc.api(`/api/device/${id}`, { token })).json());
  const enroll = (json: object) => s.tc.api('/api/agent/enroll', { method: 'POST', json });
  const resetKey = (id: string, token: string) => s.tc.api(`/api/device/${id}/installation-key`, { method: 'POST', token });
  const credentialRow = async (id: string) => (await s.tc.database.db.select().from(deviceCredentials).where(eq(deviceCredentials.deviceId, id)))[0];

  beforeAll(async () => {
    s = await setup();
    await waitFor(() => s.tc.messaging!.hub.isConnected(s.serverId), 10_000, 'hub connected');
    admin = await s.tc.token(ADMIN);
    user = await s.tc.token(USER);
  });

  afterAll(() => tearDown(s, { agents, dirs }));

  it('gives the key to managers only: a USER member reads the device without it and cannot reset it', async () => {
    const dev = await memberDevice('read only');
    const asUser = await readDevice(dev.id, user);
    expect(asUser.installationId).toBeNull();
    expect(asUser.canManage).toBe(false);
    const asAdmin = await readDevice(dev.id, admin);
    expect(asAdmin.installationId).toBe(dev.key);
    expect(asAdmin.installationKeyUsedAt).toBeNull();

    const refused = await resetKey(dev.id, user);
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe('Only the creator or an administrator of the organization can change this device.');
    expect((await deviceRow(s.tc.database.db, dev.id)).installationKey).toBe(dev.key);

    // Neither a key nor a password: a clear 400; a password that is no account: the agent hears why.
    const bare = await enroll({ deviceId: dev.id });
    expect(bare.status).toBe(400);
    expect((await bare.json()).message).toContain('The installation key is required.');
    const guessed = await enroll({ deviceId: dev.id, password: 'guessed' });
    expect(guessed.status).toBe(403);
    expect((await guessed.json()).message).toMatch(/^The device's credentials are no longer valid/);
  });

  it('refuses a used key while the real agent stays online, and after a reset the new key enrolls and the old agent is out', async () => {
    const dev = await memberDevice('re-enrolled');
    const agent = await runAgent(dev);
    const usedAt = (await readDevice(dev.id, admin)).installationKeyUsedAt;
    expect(usedAt).not.toBeNull();

    const again = await enroll({ deviceId: dev.id, key: dev.key });
    expect(again.status).toBe(403);
    expect((await again.json()).message).toBe(KEY_USED);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await deviceRow(s.tc.database.db, dev.id)).online).toBe(true);
    expect(await s.tc.messaging!.hub.ping(dev.id)).toBeGreaterThanOrEqual(0);
    expect(agent.output()).not.toMatch(/connection error/);

    const reset = await resetKey(dev.id, admin);
    expect(reset.status).toBe(200);
    const { installationId: newKey } = (await reset.json()) as { installationId: string };
    expect(newKey).not.toBe(dev.key);
    // The old agent is dropped at once, and its renewals are refused: it stays out.
    await waitFor(() => s.tc.messaging!.hub.ping(dev.id).then(() => undefined, () => true), 10_000, 'old agent disconnected');
    await waitFor(() => /refused the enrollment/.test(agent.output()), 10_000, 'old agent refused by the console');
    expect(agent.output()).toContain("The device's credentials are no longer valid");
    expect(await credentialRow(dev.id)).toBeUndefined();
    const oldKey = await enroll({ deviceId: dev.id, key: dev.key });
    expect(oldKey.status).toBe(403);

    const fresh = await enrollByHand(s.tc, { id: dev.id, key: newKey });
    expect(await brokerAccepts(fresh, dev.id)).toBe(true);
    expect((await enroll({ deviceId: dev.id, key: newKey })).status).toBe(403);
  }, 60_000);

  // Only a broker with accounts of its own can lose one or fail to take one: the embedded broker reads the database.
  if (!withAccounts) return;
  it('lets an agent whose message server lost its account renew it with its own password, the key staying used', async () => {
    const dev = await memberDevice('account lost');
    const agent = await runAgent(dev);
    const before = await deviceRow(s.tc.database.db, dev.id);
    const account = await credentialRow(dev.id);

    await s.tc.messaging!.hub.removeDevice(s.serverId, dev.id);
    // Removing what the broker no longer has is no error (a reset after the broker lost the account).
    await s.tc.messaging!.hub.removeDevice(s.serverId, dev.id);
    await waitFor(() => s.tc.messaging!.hub.ping(dev.id).then(() => undefined, () => true), 10_000, 'agent dropped with its account');
    await waitFor(() => s.tc.messaging!.hub.ping(dev.id).catch(() => undefined), 20_000, 'agent back with its renewed account');
    expect(agent.output().match(/"msg":"enrolled"/g)).toHaveLength(2);
    expect(await credentialRow(dev.id)).toEqual(account);
    expect((await deviceRow(s.tc.database.db, dev.id)).installationKeyUsedAt).toEqual(before.installationKeyUsedAt);
  }, 60_000);

  it('does not carry out, once the message server is back, a reset it never confirmed', async () => {
    const mosquitto = s.mosquitto!;
    const dev = await memberDevice('hung server');
    const account = await enrollByHand(s.tc, dev);
    // Hung: the console's connection stays open, and its commands go unanswered until they time out.
    mosquitto.signal('SIGSTOP');
    try {
      expect((await resetKey(dev.id, admin)).status).toBe(503);
    } finally {
      await mosquitto.stop('SIGKILL');
    }
    await mosquitto.start();
    await waitFor(() => s.tc.messaging!.hub.isConnected(s.serverId), 15_000, 'hub reconnected');
    // Time for a command sent again on the new connection to be carried out, were one sent.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await brokerAccepts(account, dev.id)).toBe(true);
    expect((await deviceRow(s.tc.database.db, dev.id)).installationKey).toBe(dev.key);
  }, 40_000);

  it('stores nothing when the message server fails mid-enrollment or mid-reset: the device keeps working credentials', async () => {
    const mosquitto = s.mosquitto!;
    const dev = await memberDevice('provisioning fails');
    const account = await enrollByHand(s.tc, dev);
    const before = await credentialRow(dev.id);

    await mosquitto.stop();
    try {
      const renewal = await enroll({ deviceId: dev.id, password: account.password });
      expect(renewal.status).toBe(503);
      expect((await renewal.json()).message).toMatch(/message server/);
      expect(await credentialRow(dev.id)).toEqual(before);
    } finally {
      await mosquitto.start();
    }
    await waitFor(() => s.tc.messaging!.hub.isConnected(s.serverId), 15_000, 'hub reconnected');
    expect(await brokerAccepts(account, dev.id)).toBe(true);

    // A reset the message server cannot confirm changes nothing: the old key and account stay.
    await mosquitto.stop();
    try {
      const refused = await resetKey(dev.id, admin);
      expect(refused.status).toBe(503);
      expect((await refused.json()).message).toBe('The message server is not reachable right now.');
      expect((await deviceRow(s.tc.database.db, dev.id)).installationKey).toBe(dev.key);
      expect(await credentialRow(dev.id)).toEqual(before);
    } finally {
      await mosquitto.start();
    }
    await waitFor(() => s.tc.messaging!.hub.isConnected(s.serverId), 15_000, 'hub reconnected');
    expect(await brokerAccepts(account, dev.id)).toBe(true);

    // After a reset, a first enrollment that fails leaves the new key unused.
    const { installationId: newKey } = (await (await resetKey(dev.id, admin)).json()) as { installationId: string };
    await mosquitto.stop();
    try {
      expect((await enroll({ deviceId: dev.id, key: newKey })).status).toBe(503);
      expect(await credentialRow(dev.id)).toBeUndefined();
      expect((await deviceRow(s.tc.database.db, dev.id)).installationKeyUsedAt).toBeNull();
    } finally {
      await mosquitto.start();
    }
    await waitFor(() => s.tc.messaging!.hub.isConnected(s.serverId), 15_000, 'hub reconnected');
    const fresh = await enrollByHand(s.tc, { id: dev.id, key: newKey });
    expect(await brokerAccepts(fresh, dev.id)).toBe(true);
    expect(await brokerAccepts(account, dev.id)).toBe(false);
  }, 60_000);
}

describe('installation keys on the embedded broker', () => {
  installationKeySuite(() => embeddedSetup({ ENROLL_RATE_LIMIT: '50' }), false);
});

describe.skipIf(!bin)('installation keys on Mosquitto with dynamic security', () => {
  installationKeySuite(() => mosquittoSetup(bin!, { ENROLL_RATE_LIMIT: '50' }), true);
});

/**
 * Issue 23, the agent: however often the broker refuses it, one enrollment loop runs, with its own
 * backoff. The console allows one enrollment a minute here, so every renewal is answered 429.
 */
describe('an agent refused again and again', () => {
  let tc: TestConsole;
  let agent: AgentProcess | undefined;
  const dataDir = tempDir('fleetlink-agent-');

  beforeAll(async () => {
    tc = await startAgentTestConsole({ ENROLL_RATE_LIMIT: '1' });
  });

  afterAll(async () => {
    await agent?.kill();
    await tc?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs one enrollment loop, which waits as long as the console asks', async () => {
    const dev = await createDevice(tc.database.db, 'refused');
    agent = spawnAgent({ server: tc.url, device: dev.id, key: dev.key, dataDir, maxBackoffMs: 500 });
    await waitFor(async () => (await deviceRow(tc.database.db, dev.id)).online, 15_000, 'agent online');

    // The account disappears behind the console's back: every reconnection is refused.
    await tc.database.db.delete(deviceCredentials).where(eq(deviceCredentials.deviceId, dev.id));
    tc.messaging!.hub.disconnectDevice(dev.id);
    const refusals = () => agent!.output().match(/Bad username or password/g)?.length ?? 0;
    await waitFor(() => refusals() >= 8, 20_000, 'a burst of refused reconnections');

    const attempts = agent.output().match(/"msg":"(enrollment failed, retrying|the console refused the enrollment[^"]*)"/g) ?? [];
    expect(attempts).toHaveLength(1);
    const waited = JSON.parse(agent.output().split('\n').find((l) => l.includes('enrollment failed, retrying'))!) as { inMs: number; err: string };
    expect(waited.err).toMatch(/Too many enrollment attempts/);
    expect(waited.inMs).toBeGreaterThan(30_000);
  }, 60_000);
});
