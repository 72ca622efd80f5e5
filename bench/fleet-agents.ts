/**
 * Child process of bench/fleet-sim.ts: many lightweight simulated agents, plain mqtt clients with
 * the credentials the console issued at enrollment. Each one does what the real agent does on the
 * wire: retained state with a last will, properties once, heartbeats and load samples at the
 * enrolled intervals (phases spread at random), and answers to the console's requests (ping).
 * Counters go to the parent over IPC; SIGTERM ends every connection and the process.
 *
 *   (started by fleet-sim.ts) tsx bench/fleet-agents.ts <plan.json>
 */
import { readFileSync } from 'node:fs';
import mqtt, { type MqttClient } from 'mqtt';
import { agentClientId, topics, type PropertiesPayload } from '@fleetlink/contract';
import { collectProperties } from '../apps/agent/src/collectors/properties.js';

export interface FleetPlan {
  url: string;
  heartbeatSeconds: number;
  metricsSeconds: number;
  /** New connections per second (the ramp). */
  connectRate: number;
  /** Each with the message server its enrollment named (`url` when none). */
  devices: { id: string; username: string; password: string; url?: string }[];
}

export interface FleetCounters {
  connected: number;
  connects: number;
  closes: number;
  errors: number;
  published: number;
  /** Of those, telemetry (state, properties, heartbeats, samples): what the consoles handle. */
  telemetry: number;
  requests: number;
  started: number;
  /**
   * Telemetry published and not yet acknowledged when a connection closed, summed over the closes:
   * mqtt.js sends each again on the next connection, so a message server that had passed one on
   * before it went may have it handled twice (QoS 1 is at least once). The bench's bound for that.
   */
  unackedAtClose: number;
}

const plan = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as FleetPlan;
const counters: FleetCounters = { connected: 0, connects: 0, closes: 0, errors: 0, published: 0, telemetry: 0, requests: 0, started: 0, unackedAtClose: 0 };
const clients: MqttClient[] = [];
const timers: NodeJS.Timeout[] = [];

// One realistic properties document (the agent's own collector), varied per device where it differs.
const baseProperties = collectProperties(0.1);
const propertiesOf = (id: string, i: number): PropertiesPayload => ({
  properties: { ...baseProperties, hostname: `sim-${i}-${id.slice(0, 8)}` },
  addresses: [
    { type: 'LOCAL', ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
    { type: 'PUBLIC', ip: `203.0.113.${i % 250}` },
  ],
  drives: [{ name: '/', root: '/', totalSpace: 64e9, freeSpace: 20e9 + (i % 100) * 1e8 }],
});

function startAgent(d: FleetPlan['devices'][number], i: number) {
  // As the agent does: each connection's states, its last will included, carry its session, rising.
  let session = Date.now();
  const willOf = (s: number) => ({ topic: topics.state(d.id), payload: Buffer.from(JSON.stringify({ online: false, session: s })), qos: 1 as const, retain: true });
  const client = mqtt.connect(d.url ?? plan.url, {
    protocolVersion: 4,
    clientId: agentClientId(d.id),
    username: d.username,
    password: d.password,
    clean: true,
    keepalive: Math.min(60, Math.max(5, plan.heartbeatSeconds * 2)),
    // mqtt.js's own reconnect, spread so a broker restart is not met by one synchronized wave.
    reconnectPeriod: 2000 + Math.floor(Math.random() * 3000),
    connectTimeout: 30_000,
    queueQoSZero: false,
    writeCache: false,
    will: willOf(session),
  });
  clients.push(client);
  let wasConnected = false;
  let unacked = 0;
  const publish = (topic: string, payload: unknown, retain = false, reply = false) => {
    if (!client.connected) return;
    // Telemetry's callback runs once the message server acknowledged it, on this connection or after a resend.
    client.publish(topic, JSON.stringify(payload), { qos: 1, retain }, reply ? undefined : () => unacked--);
    counters.published++;
    if (!reply) {
      unacked++;
      counters.telemetry++;
    }
  };
  client.on('connect', () => {
    counters.connects++;
    if (!wasConnected) counters.connected++;
    wasConnected = true;
    client.subscribe(topics.request(d.id), { qos: 1 });
    publish(topics.state(d.id), { online: true, time: new Date().toISOString(), session }, true);
    publish(topics.properties(d.id), propertiesOf(d.id, i));
  });
  client.on('close', () => {
    // mqtt.js reconnects with its options: the next connection's will carries the next session.
    session = Math.max(Date.now(), session + 1);
    client.options.will = willOf(session);
    counters.closes++;
    counters.unackedAtClose += unacked;
    if (wasConnected) counters.connected--;
    wasConnected = false;
  });
  client.on('error', () => counters.errors++);
  client.on('message', (_topic, payload) => {
    counters.requests++;
    try {
      const req = JSON.parse(payload.toString('utf8')) as { id: string; replyTo: string; name: string; parameters?: { name?: string } };
      const result =
        req.name === 'ping'
          ? { ok: true, result: { time: new Date().toISOString() } }
          : req.name === 'command' && req.parameters?.name === 'ping'
            ? // The command ping (a fleet job's, bench/fleet-job.ts), answered as the agent does.
              { ok: true, result: { exitCode: 0, signal: null, timedOut: false, stdout: 'pong\n', stderr: '', stdoutCut: 0, stderrCut: 0, durationMs: 0 } }
            : { ok: false, error: `Unknown request ${req.name}` };
      publish(req.replyTo, { id: req.id, ...result }, false, true);
    } catch {
      // Not for a simulated agent to judge.
    }
  });
  // Random phases: a real fleet's agents started at different moments.
  const every = (seconds: number, fn: () => void) => {
    const t = setTimeout(() => timers.push(setInterval(fn, seconds * 1000)), Math.random() * seconds * 1000);
    timers.push(t);
  };
  every(plan.heartbeatSeconds, () => publish(topics.heartbeat(d.id), { time: new Date().toISOString() }));
  every(plan.metricsSeconds, () => publish(topics.metrics(d.id), { time: new Date().toISOString(), systemLoad: Math.round(Math.random() * 1000) / 1000 }));
}

// The ramp: connectRate new agents per second, in 100 ms slices.
let next = 0;
const perSlice = Math.max(1, Math.round(plan.connectRate / 10));
const ramp = setInterval(() => {
  for (let k = 0; k < perSlice && next < plan.devices.length; k++, next++) startAgent(plan.devices[next]!, next);
  counters.started = next;
  if (next >= plan.devices.length) clearInterval(ramp);
}, 100);

const report = setInterval(() => process.send?.({ type: 'counters', counters }), 1000);

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  clearInterval(ramp);
  clearInterval(report);
  timers.forEach((t) => clearInterval(t));
  // A clean DISCONNECT, as the real agent does when stopped: no wills. (Ten thousand wills at the
  // same instant crash the embedded broker's mqemitter with a stack overflow, see the report.)
  const ended = Promise.all(clients.map((c) => new Promise<void>((resolve) => c.end(false, {}, () => resolve()))));
  const exit = () => process.send?.({ type: 'counters', counters }, () => process.exit(0)) ?? process.exit(0);
  void ended.then(exit);
  setTimeout(exit, 10_000).unref();
}
process.on('SIGTERM', stop);
process.on('disconnect', stop);
