import { JsonReader } from '../json-reader.js';
import type { AgentEnrollResponse, AgentServer } from './servers.js';

/**
 * What the agent reads of its enrollment, without zod. An agent installed on a device enrolls in the
 * process that then runs for good, and an idle agent that never loads zod is about 4 MB lighter
 * (issue 73), so it reads the answer by hand. The API documents the answer with
 * agentEnrollResponseSchema (servers.ts); agent-enrollment.test.ts holds the two to the same
 * verdicts, so this is not a second definition that can drift.
 */

export const serverTypes = ['MESSAGE', 'PROXY'] as const;

const read = new JsonReader((field) => new Error(`The console's enrollment answer is not valid: ${field}.`));

/** The answer of `POST /api/agent/enroll` (parsed JSON), with only its own fields; throws, naming the first field that is wrong. */
export function readAgentEnrollResponse(value: unknown): AgentEnrollResponse {
  const answer = read.record(value, 'the answer');
  const mqtt = read.record(answer.mqtt, 'mqtt');
  return {
    deviceId: read.string(answer.deviceId, 'deviceId'),
    mqtt: { username: read.string(mqtt.username, 'mqtt.username'), password: read.string(mqtt.password, 'mqtt.password') },
    servers: read.list(answer.servers, 'servers', readServer),
    heartbeatSeconds: read.integer(answer.heartbeatSeconds, 'heartbeatSeconds', 1),
    metricsSeconds: read.integer(answer.metricsSeconds, 'metricsSeconds', 1),
  };
}

function readServer(value: unknown, field: string): AgentServer {
  const s = read.record(value, field);
  return {
    id: read.string(s.id, `${field}.id`),
    type: read.oneOf(serverTypes, s.type, `${field}.type`),
    url: read.string(s.url, `${field}.url`),
    trustStore: read.nullableString(s.trustStore, `${field}.trustStore`),
    hostKey: read.nullableString(s.hostKey, `${field}.hostKey`),
  };
}
