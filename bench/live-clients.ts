/**
 * The far side of bench/live-updates.ts, in a process of its own so the console's process holds only
 * the console: the simulated devices (MQTT, with their enrolled accounts) and the open pages (live
 * sockets with one member's token). Driven over IPC by the parent, one phase at a time:
 *
 * - `devices`: connects every device and says it is online;
 * - `streams`: opens the live sockets and waits until each said `ready`;
 * - `toggle`: for `seconds`, `perSecond` devices a second (round robin) say offline or online again;
 *   each state change's publish time is kept, and each stream's receipt of it is a latency sample;
 * - `reference`: the same rate of events sent through a bare WebSocket relay to as many sockets;
 * - `end`: closes everything.
 */
import mqtt, { type MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { LIVE_PATH, topics, agentClientId } from '@fleetlink/contract';
import { percentile } from './percentile.js';

export interface LivePlan {
  url: string;
  token: string;
  brokerUrl: string;
  devices: { id: string; username: string; password: string }[];
  streams: number;
}

export type LiveCommand =
  | { phase: 'devices' }
  | { phase: 'streams' }
  | { phase: 'toggle'; seconds: number; perSecond: number }
  | { phase: 'reference'; url: string; seconds: number; perSecond: number }
  | { phase: 'end' };

export interface Latencies {
  samples: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Changes sent that some stream never reported. */
  missed: number;
  messages: number;
  resyncs: number;
  closes: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const send = (m: unknown) => process.send!(m);

let plan: LivePlan;
const clients: MqttClient[] = [];
const sockets: WebSocket[] = [];
/** When each (device, state) change was published, by `${id}:${online}`; replaced at each toggle. */
const sentAt = new Map<string, number>();
let samples: number[] = [];
const seen = new Map<string, number>();
let messages = 0;
let resyncs = 0;
let closes = 0;

process.on('message', (raw: LivePlan | LiveCommand) => {
  if ('devices' in raw && Array.isArray(raw.devices)) {
    plan = raw;
    return;
  }
  void run(raw as LiveCommand).catch((err: Error) => send({ error: err.message }));
});

async function run(c: LiveCommand) {
  switch (c.phase) {
    case 'devices':
      await connectDevices();
      return send({ done: 'devices' });
    case 'streams':
      await openStreams();
      return send({ done: 'streams' });
    case 'toggle':
      return send({ done: 'toggle', latencies: await toggle(c.seconds, c.perSecond) });
    case 'reference':
      return send({ done: 'reference', latencies: await reference(c.url, c.seconds, c.perSecond) });
    case 'end':
      sockets.forEach((s) => s.terminate());
      await Promise.all(clients.map((m) => m.endAsync(true)));
      process.exit(0);
  }
}

async function connectDevices() {
  let connected = 0;
  await Promise.all(
    plan.devices.map(
      (d, i) =>
        new Promise<void>((resolve) => {
          setTimeout(() => {
            const client = mqtt.connect(plan.brokerUrl, { clientId: agentClientId(d.id), username: d.username, password: d.password, clean: true, keepalive: 60, reconnectPeriod: 3000 });
            clients[i] = client;
            client.once('connect', () => {
              client.publish(topics.state(d.id), JSON.stringify({ online: true, time: new Date().toISOString() }), { qos: 1, retain: true });
              connected++;
              resolve();
            });
          }, Math.floor(i / 200) * 1000); // 200 new connections a second
        }),
    ),
  );
  return connected;
}

function onLive(data: WebSocket.RawData) {
  const now = performance.now();
  messages++;
  const m = JSON.parse(String(data)) as { type: string; changes?: { id: string; online?: boolean }[] };
  if (m.type === 'resync') resyncs++;
  for (const ch of m.changes ?? []) {
    if (ch.online === undefined) continue;
    const key = `${ch.id}:${ch.online}`;
    const at = sentAt.get(key);
    if (at === undefined) continue;
    samples.push(now - at);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
}

async function openStreams() {
  const ws = plan.url.replace(/^http/, 'ws') + LIVE_PATH;
  const origin = new URL(plan.url).origin;
  for (let i = 0; i < plan.streams; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, plan.streams - i) }, () =>
        new Promise<void>((resolve, reject) => {
          const s = new WebSocket(ws, { origin });
          sockets.push(s);
          s.once('open', () => s.send(JSON.stringify({ token: plan.token })));
          s.once('message', (data) => (JSON.parse(String(data)).type === 'ready' ? resolve() : reject(new Error(`not ready: ${data}`))));
          s.once('error', reject);
          s.on('close', () => closes++);
        }).then(() => undefined),
      ),
    );
  }
  for (const s of sockets) s.on('message', onLive);
}

async function toggle(seconds: number, perSecond: number): Promise<Latencies> {
  samples = [];
  seen.clear();
  messages = resyncs = 0;
  const online = new Map(plan.devices.map((d) => [d.id, true]));
  let cursor = 0;
  const sent: string[] = [];
  const until = performance.now() + seconds * 1000;
  // In ten slices a second, so the load is spread as a fleet's is.
  while (performance.now() < until) {
    const slice = performance.now();
    for (let k = 0; k < perSecond / 10; k++) {
      const i = cursor++ % plan.devices.length;
      const d = plan.devices[i]!;
      const next = !online.get(d.id);
      online.set(d.id, next);
      const key = `${d.id}:${next}`;
      sentAt.set(key, performance.now());
      sent.push(key);
      clients[i]!.publish(topics.state(d.id), JSON.stringify({ online: next, time: new Date().toISOString() }), { qos: 1, retain: true });
    }
    await sleep(Math.max(0, 100 - (performance.now() - slice)));
  }
  await sleep(3000); // the last ones arrive
  // A change overtaken by the next one of the same device within a send interval is not listed: it is not missed.
  const missed = sent.filter((k) => (seen.get(k) ?? 0) < sockets.length).length;
  return summary(missed);
}

function summary(missed: number): Latencies {
  return {
    samples: samples.length,
    p50: percentile(samples, 50),
    p90: percentile(samples, 90),
    p99: percentile(samples, 99),
    max: samples.reduce((a, b) => Math.max(a, b), 0),
    missed,
    messages,
    resyncs,
    closes,
  };
}

/** The same events through a bare relay: one socket sends, the relay forwards each to every socket. */
async function reference(url: string, seconds: number, perSecond: number): Promise<Latencies> {
  samples = [];
  messages = 0;
  const refs: WebSocket[] = [];
  for (let i = 0; i < plan.streams; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, plan.streams - i) }, () => {
        const s = new WebSocket(url);
        refs.push(s);
        s.on('message', (data) => {
          messages++;
          samples.push(performance.now() - Number(String(data)));
        });
        return new Promise((r) => s.once('open', r));
      }),
    );
  }
  const sender = new WebSocket(url);
  await new Promise((r) => sender.once('open', r));
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const slice = performance.now();
    for (let k = 0; k < perSecond / 10; k++) sender.send(String(performance.now()));
    await sleep(Math.max(0, 100 - (performance.now() - slice)));
  }
  await sleep(2000);
  refs.forEach((s) => s.terminate());
  sender.terminate();
  return summary(0);
}
