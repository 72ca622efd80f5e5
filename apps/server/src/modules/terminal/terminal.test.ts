import { afterAll, beforeAll, expect, it } from 'vitest';
import { embeddedSetup, onlineMemberDevice, tearDown, type AgentProcess, type MessagingSetup, type OnlineMemberDevice } from '../broker/broker.test-support.js';
import { openTerminal } from './terminal.test-support.js';
let s: MessagingSetup; let d: OnlineMemberDevice;
const cleanup = { agents: [] as AgentProcess[], dirs: [] as string[] };
beforeAll(async () => { s = await embeddedSetup(); d = await onlineMemberDevice(s, 'term', cleanup); }, 60000);
afterAll(() => tearDown(s, cleanup));
it('echo', async () => {
  const t = await openTerminal(s.tc.url, d.device.id, d.admin);
  console.log(t.events);
  t.type('echo h""i\r');
  await t.waitFor(/\bhi\b/);
  t.type('exit\r');
  console.log(await t.closed, t.events);
}, 30000);
