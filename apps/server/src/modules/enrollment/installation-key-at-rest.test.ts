import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerSettings, devices } from '../../db/schema/index.js';
import { ADMIN_EMAIL, createDevice, embeddedSetup, enrollByHand, memberDevice, tearDown, type MessagingSetup } from '../broker/broker.test-support.js';

/**
 * Issue 58: the database keeps installation keys sealed with the console's secret key. A copy of it
 * alone (here: the stored text read from the table) enrolls nothing; the Install page still shows a
 * manager the key, and keys an older console kept in plain text are sealed at the first start.
 */
describe('installation keys at rest', () => {
  let s: MessagingSetup;
  const stored = async (id: string) => (await s.tc.database.db.select({ key: devices.installationKey }).from(devices).where(eq(devices.id, id)))[0]!.key;
  const enroll = (deviceId: string, key: string) => s.tc.api('/api/agent/enroll', { method: 'POST', json: { deviceId, key } });

  beforeAll(async () => {
    s = await embeddedSetup({ ENROLL_RATE_LIMIT: '50' });
  });
  afterAll(() => tearDown(s, { agents: [], dirs: [] }));

  it("keeps a new device's key sealed: the stored text enrolls nothing, the key the Install page shows does", async () => {
    const org = await memberDevice(s.tc.database.db, 'owner of the organization');
    const created = await s.tc.call(ADMIN_EMAIL, 'POST', '/api/device', { organization: org.organizationId, name: 'sealed-key', branch: 'PRODUCTION' });
    expect(created.status).toBe(201);
    const { id, installationId } = created.body as { id: string; installationId: string };
    const atRest = await stored(id);
    expect(atRest).toMatch(/^sealed:v1:/);
    expect(atRest).not.toContain(installationId);
    expect((await enroll(id, atRest)).status).toBe(403);
    expect((await enroll(id, installationId)).status).toBe(200);

    // A reset key is kept sealed too, and shown once more to the manager who reset it.
    const reset = await s.tc.call(ADMIN_EMAIL, 'POST', `/api/device/${id}/installation-key`);
    expect(reset.status).toBe(200);
    const again = await stored(id);
    expect(again).toMatch(/^sealed:v1:/);
    expect(again).not.toContain(reset.body.installationId);
    expect((await s.tc.call(ADMIN_EMAIL, 'GET', `/api/device/${id}`)).body.installationId).toBe(reset.body.installationId);
    expect((await enroll(id, again)).status).toBe(403);
    expect((await enroll(id, reset.body.installationId)).status).toBe(200);
  });

  it('seals at the first start the keys an older console kept in plain text', async () => {
    const old = await createDevice(s.tc.database.db, 'from an older console');
    expect(await stored(old.id)).toBe(old.key);
    await s.tc.database.db.delete(brokerSettings).where(eq(brokerSettings.name, 'installationKeysSealed'));
    await s.tc.restart();
    expect(await stored(old.id)).toMatch(/^sealed:v1:/);
    expect(await enrollByHand(s.tc, old)).toMatchObject({ username: old.id });
  });
});
