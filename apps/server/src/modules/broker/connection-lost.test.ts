import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedSetup, onlineMemberDevice, tearDown, type AgentProcess, type MessagingSetup, type OnlineMemberDevice } from './broker.test-support.js';

/**
 * Issue 67: a request in flight when the console loses its message server (a broker killed) fails
 * at once, saying so, rather than waiting out its deadline (an hour for a file transfer): the answer
 * cannot come through a session that is gone.
 */
describe('a request whose message server goes away', () => {
  let s: MessagingSetup;
  let d: OnlineMemberDevice;
  const cleanup = { agents: [] as AgentProcess[], dirs: [] as string[] };
  beforeAll(async () => {
    s = await embeddedSetup();
    d = await onlineMemberDevice(s, 'cut off', cleanup);
  }, 60_000);
  afterAll(async () => tearDown(s, cleanup));

  it('fails when the connection drops, with a message, well before its deadline', async () => {
    const asked = Date.now();
    const running = s.tc.api(`/api/device/${d.device.id}/command`, {
      method: 'POST',
      token: d.admin,
      json: { name: 'execute', parameters: [{ name: 'command', value: 'sleep 30' }, { name: 'timeout', value: '60' }] },
    });
    await new Promise((r) => setTimeout(r, 1000));
    await s.tc.messaging!.broker!.stop();
    const res = await running;
    expect(Date.now() - asked).toBeLessThan(10_000);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { message: string }).message).toBe(
      "The console's connection to the device's message server was lost before the device answered: try again in a moment.",
    );
  }, 60_000);
});
