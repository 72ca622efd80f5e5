import { describe, expect, it } from 'vitest';
import { expectSameVerdict } from '../json-reader.test-support.js';
import { readAgentEnrollResponse } from './agent-enrollment.js';
import { agentEnrollResponseSchema } from './servers.js';

const message = { id: 's1', type: 'MESSAGE', url: 'mqtts://broker.example:8883', trustStore: 'QUJD', hostKey: null };
const proxy = { id: 's2', type: 'PROXY', url: 'ssh://proxy.example:2222', trustStore: null, hostKey: 'ssh-ed25519 AAAA' };
const enrolled = { deviceId: 'd1', mqtt: { username: 'd1', password: 'secret' }, servers: [message, proxy], heartbeatSeconds: 30, metricsSeconds: 60 };

/** Answers the console may give, and answers no console gives: the agent must take exactly the first. */
const answers: [string, unknown][] = [
  ['an enrollment', enrolled],
  ['no servers', { ...enrolled, servers: [] }],
  ['fields the agent does not know (dropped)', { ...enrolled, organization: 'o', mqtt: { ...enrolled.mqtt, extra: 1 }, servers: [{ ...message, capacity: 10 }] }],
  ['nothing', undefined],
  ['an error page', 'Bad gateway'],
  ['a list', [enrolled]],
  ['no device id', { ...enrolled, deviceId: undefined }],
  ['no password', { ...enrolled, mqtt: { username: 'd1' } }],
  ['no mqtt account', { ...enrolled, mqtt: null }],
  ['servers that are no list', { ...enrolled, servers: message }],
  ['a server of an unknown type', { ...enrolled, servers: [{ ...message, type: 'RELAY' }] }],
  ['a server without its trust store', { ...enrolled, servers: [{ ...message, trustStore: undefined }] }],
  ['a host key that is a number', { ...enrolled, servers: [{ ...proxy, hostKey: 7 }] }],
  ['a heartbeat of 0 seconds', { ...enrolled, heartbeatSeconds: 0 }],
  ['a heartbeat of 1 second', { ...enrolled, heartbeatSeconds: 1 }],
  ['a heartbeat of 2.5 seconds', { ...enrolled, heartbeatSeconds: 2.5 }],
  ['metrics every -60 seconds', { ...enrolled, metricsSeconds: -60 }],
  ['metrics as text', { ...enrolled, metricsSeconds: '60' }],
];

describe("the agent's reading of its enrollment (without zod)", () => {
  it.each(answers)('agrees with the API schema on %s', (_, answer) => {
    expectSameVerdict(agentEnrollResponseSchema, readAgentEnrollResponse, answer, /^The console's enrollment answer is not valid: .+\.$/);
  });

  it('names the field that is wrong', () => {
    expect(() => readAgentEnrollResponse({ ...enrolled, servers: [message, { ...proxy, type: 'RELAY' }] })).toThrow("The console's enrollment answer is not valid: servers[1].type.");
  });
});
