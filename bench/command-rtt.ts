/**
 * Command round trip (issue 24): ROUNDS `ping` commands console → agent → console, against one
 * real agent (the launcher and its bundle, as users run it), on the embedded broker and on a
 * Mosquitto of its own (when the machine has one). Two console paths are timed:
 *   - hub: the `command` request over MQTT and the agent's answer (MessageHub.request);
 *   - http: POST /api/device/{id}/command as a browser sends it (token check, membership, online
 *     check, the same MQTT round trip, the answer's validation).
 * Beside them, the broker's own round trip in the same run: an MQTT client publishing QoS 1 to a
 * topic it subscribes to, on the same broker, so the ratio shows what the console and agent add.
 * Target on loopback: p50 < 5 ms, p99 < 25 ms.
 *
 *   npx tsx bench/command-rtt.ts
 *   ROUNDS=5000 npx tsx bench/command-rtt.ts
 */
import { rmSync } from 'node:fs';
import mqtt from 'mqtt';
import { agentClientId, RequestName, topics } from '@fleetlink/contract';
import {
  ADMIN_EMAIL,
  embeddedSetup,
  enrollByHand,
  memberDevice,
  mosquittoBin,
  mosquittoSetup,
  runAgentOnline,
  type AgentProcess,
  type MessagingSetup,
} from '../apps/server/src/modules/broker/broker.test-support.js';
import { percentile } from './percentile.js';

const ROUNDS = Number(process.env.ROUNDS ?? 1000);
const WARM_UP = 50;

interface Figures {
  p50: number;
  p99: number;
  max: number;
}

function figures(samples: number[]): Figures {
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), max: Math.max(...samples) };
}

async function timed(rounds: number, once: () => Promise<unknown>): Promise<Figures> {
  for (let i = 0; i < WARM_UP; i++) await once();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await once();
    samples.push(performance.now() - started);
  }
  return figures(samples);
}

/**
 * The broker alone: a device's own account publishes QoS 1 to a topic of its own it subscribes
 * to, until the message is back (the same account kind and ACL check as the agent's traffic).
 */
async function brokerRoundTrip(s: MessagingSetup): Promise<Figures> {
  const dev = await memberDevice(s.tc.database.db, 'broker only');
  const account = await enrollByHand(s.tc, dev);
  const client = await mqtt.connectAsync(account.url, { ...account, protocolVersion: 4, clientId: agentClientId(dev.id), reconnectPeriod: 0 });
  (client.stream as { setNoDelay?(on: boolean): void }).setNoDelay?.(true);
  const topic = `${topics.deviceAll(dev.id).slice(0, -1)}bench`;
  await client.subscribeAsync(topic, { qos: 1 });
  // Each round waits for its own message, by number: nothing earlier or duplicated can end it.
  let round = 0;
  let arrived: ((n: number) => void) | undefined;
  client.on('message', (_topic, payload) => arrived?.(Number(payload.toString())));
  try {
    return await timed(ROUNDS, () => new Promise<void>((resolve) => {
      const n = ++round;
      arrived = (m) => m === n && resolve();
      client.publish(topic, String(n), { qos: 1 });
    }));
  } finally {
    await client.endAsync();
  }
}

const ms = (f: Figures) => `p50 ${f.p50.toFixed(2)} ms, p99 ${f.p99.toFixed(2)} ms, max ${f.max.toFixed(1)} ms`;

async function measure(label: string, setup: () => Promise<MessagingSetup>) {
  const s = await setup();
  const cleanup = { agents: [] as AgentProcess[], dirs: [] as string[] };
  try {
    const dev = await memberDevice(s.tc.database.db, 'rtt');
    await runAgentOnline(s.tc, dev, cleanup);
    const token = await s.tc.token(ADMIN_EMAIL);
    const ping = { name: 'ping', parameters: {} };
    const hub = await timed(ROUNDS, () => s.tc.messaging!.hub.request(dev.id, RequestName.Command, ping));
    const http = await timed(ROUNDS, async () => {
      const res = await s.tc.api(`/api/device/${dev.id}/command`, { method: 'POST', token, json: { name: 'ping', parameters: [] } });
      if (res.status !== 200) throw new Error(`command answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    });
    const broker = await brokerRoundTrip(s);
    console.log(`${label} (${ROUNDS} rounds each, after ${WARM_UP} to warm up)`);
    console.log(`  broker alone (QoS 1 to itself): ${ms(broker)}`);
    console.log(`  ping via hub:                   ${ms(hub)}  (p50 ${(hub.p50 / broker.p50).toFixed(1)}× the broker's)`);
    console.log(`  ping via POST /api/…/command:   ${ms(http)}  (p50 ${(http.p50 / broker.p50).toFixed(1)}× the broker's)`);
  } finally {
    for (const a of cleanup.agents) await a.kill('SIGTERM');
    await s.tc.close();
    await s.dispose();
    for (const d of cleanup.dirs) rmSync(d, { recursive: true, force: true });
  }
}

console.log(`node ${process.version}, loopback; target p50 < 5 ms, p99 < 25 ms`);
await measure('embedded broker (Aedes)', () => embeddedSetup());
const bin = mosquittoBin();
if (bin) {
  await measure('Mosquitto 2 with dynamic security', () => mosquittoSetup(bin));
} else {
  console.log('Mosquitto: not on this machine, skipped');
}
process.exit(0);
