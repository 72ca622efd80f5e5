/**
 * MQTT topics of the device protocol (DESIGN §5). Everything of a device lives under
 * `fl/d/{deviceId}/…`, so one ACL pattern per device gives it exactly its own traffic.
 */
export const TOPIC_ROOT = 'fl/d';

export const topicKinds = ['state', 'heartbeat', 'properties', 'metrics', 'req', 'reply'] as const;
export type TopicKind = (typeof topicKinds)[number];

export const topics = {
  /** Everything of one device: the ACL pattern. */
  deviceAll: (deviceId: string) => `${TOPIC_ROOT}/${deviceId}/#`,
  /** Retained `{online}`; the agent's last will sets it offline. */
  state: (deviceId: string) => `${TOPIC_ROOT}/${deviceId}/state`,
  heartbeat: (deviceId: string) => `${TOPIC_ROOT}/${deviceId}/heartbeat`,
  properties: (deviceId: string) => `${TOPIC_ROOT}/${deviceId}/properties`,
  metrics: (deviceId: string) => `${TOPIC_ROOT}/${deviceId}/metrics`,
  /** Console → agent requests. */
  request: (deviceId: string) => `${TOPIC_ROOT}/${deviceId}/req`,
  /** Agent → console replies; each console instance listens on its own id. */
  reply: (deviceId: string, consoleId: string) => `${TOPIC_ROOT}/${deviceId}/reply/${consoleId}`,
};

/** What the console subscribes to: device telemetry, and replies addressed to this instance. */
export const hubSubscriptions = (consoleId: string) => [
  `${TOPIC_ROOT}/+/state`,
  `${TOPIC_ROOT}/+/heartbeat`,
  `${TOPIC_ROOT}/+/properties`,
  `${TOPIC_ROOT}/+/metrics`,
  `${TOPIC_ROOT}/+/reply/${consoleId}`,
];

export interface ParsedTopic {
  deviceId: string;
  kind: TopicKind;
  /** For replies: the console instance id. */
  rest: string[];
}

/** Splits a device topic; anything outside the protocol gives undefined. */
export function parseTopic(topic: string): ParsedTopic | undefined {
  const parts = topic.split('/');
  if (parts.length < 4 || `${parts[0]}/${parts[1]}` !== TOPIC_ROOT) return undefined;
  const [, , deviceId, kind, ...rest] = parts;
  if (!deviceId || !(topicKinds as readonly string[]).includes(kind!)) return undefined;
  return { deviceId, kind: kind as TopicKind, rest };
}

/** True when `topic` (a name or a filter, wildcards included) stays inside `fl/d/{deviceId}/`. */
export function isOwnTopic(deviceId: string, topic: string): boolean {
  return topic.startsWith(`${TOPIC_ROOT}/${deviceId}/`);
}
