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
  /**
   * Agent → console replies. Each console instance listens on its own reply token: a random value
   * of its own, never its MQTT client id, since every device it sends a request to reads it.
   */
  reply: (deviceId: string, replyToken: string) => `${TOPIC_ROOT}/${deviceId}/reply/${replyToken}`,
};

/**
 * The only MQTT client id a device's account may connect with, on every broker: a login bound to
 * its client id cannot take over (and so disconnect) the console's or another device's session.
 */
export const agentClientId = (deviceId: string) => `fl-${deviceId}`;

/** The share group of every console (DESIGN §5b): the broker hands each telemetry message to one of them. */
export const CONSOLE_SHARE_GROUP = 'fleetlink';

/**
 * What the console subscribes to, with the QoS of each: device telemetry, and replies addressed to
 * this instance. With `shared` (a broker that has shared subscriptions), telemetry is subscribed as
 * `$share/fleetlink/…`, so several consoles on one broker handle each message once; replies stay
 * each console's own. Heartbeats and load samples, most of a fleet's traffic, come at QoS 0: the
 * hub's session is clean, so QoS 1 would add nothing but an acknowledgement written back for each
 * (over a quarter of the console's CPU per message, issue 70), and a broker's window
 * of unacknowledged messages behind which it drops the rest; a lost one is made good by the next.
 */
export const hubSubscriptions = (replyToken: string, opts: { shared?: boolean } = {}): Record<string, { qos: 0 | 1 }> => ({
  ...Object.fromEntries(
    (['state', 'heartbeat', 'properties', 'metrics'] as const).map((kind) => [
      opts.shared ? `$share/${CONSOLE_SHARE_GROUP}/${TOPIC_ROOT}/+/${kind}` : `${TOPIC_ROOT}/+/${kind}`,
      { qos: kind === 'heartbeat' || kind === 'metrics' ? 0 : 1 },
    ]),
  ),
  [`${TOPIC_ROOT}/+/reply/${replyToken}`]: { qos: 1 },
});

export interface ParsedTopic {
  deviceId: string;
  kind: TopicKind;
  /** For replies: the console instance's reply token. */
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

/** The largest device message the console reads: a command's answer with both output streams at their cap (agent: execute.ts). */
export const MQTT_MAX_PAYLOAD_BYTES = 512 * 1024;
/**
 * The largest MQTT packet a broker takes (the built-in one, and Mosquitto's `max_packet_size` in
 * deploy/mosquitto/mosquitto.conf): the largest message, its topic and headers, with room to spare.
 * A client that sends a larger one is disconnected before the broker holds it.
 */
export const MQTT_MAX_PACKET_BYTES = 768 * 1024;
