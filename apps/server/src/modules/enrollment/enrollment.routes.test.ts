import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestConsole } from '../../testing/test-console.js';
import { createDevice, startAgentTestConsole } from '../broker/broker.test-support.js';

/** Issue 4.7: enrollment is public, so guessing keys is slowed down per address. */
describe('POST /api/agent/enroll rate limit', () => {
  let tc: TestConsole;

  beforeAll(async () => {
    tc = await startAgentTestConsole({ ENROLL_RATE_LIMIT: '3' });
  });
  afterAll(async () => tc?.close());

  it('answers 429 with a clear message past ENROLL_RATE_LIMIT attempts a minute, even with the right key', async () => {
    const dev = await createDevice(tc.database.db);
    const enroll = (key: string) => tc.api('/api/agent/enroll', { method: 'POST', json: { deviceId: dev.id, key } });
    for (let i = 0; i < 3; i++) expect((await enroll(`guess-${i}`)).status).toBe(403);
    const limited = await enroll(dev.key);
    expect(limited.status).toBe(429);
    const body = await limited.json();
    expect(body.code).toBe('RATE_LIMITED');
    expect(body.message).toMatch(/^Too many enrollment attempts: try again in \d+ seconds\.$/);
  });
});
