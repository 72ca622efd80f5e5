/**
 * Agent while the broker is away (issue 4): one real agent (the launcher and its bundle, as users
 * run it) against a console with its embedded broker; the broker stops for OUTAGE_SECONDS while
 * the agent's RSS is sampled every 5 s and its reconnection attempts counted, then it starts again
 * and the time until the agent answers through the console again is measured.
 *
 *   npx tsx bench/agent-reconnect.ts                       # 60 s outage, real backoff (max 30 s)
 *   OUTAGE_SECONDS=120 AGENT_MAX_BACKOFF_MS=1000 npx tsx bench/agent-reconnect.ts   # many attempts
 */
import { readFileSync, rmSync } from 'node:fs';
import { freePort, startTestConsole } from '../apps/server/src/testing/test-console.js';
import { createDevice, deviceRow, spawnAgent, tempDir, waitFor } from '../apps/server/src/modules/broker/broker.test-support.js';

const OUTAGE = Number(process.env.OUTAGE_SECONDS ?? 60);
// spawnAgent caps the backoff at 1 s for tests; here it is the real agent's 30 s unless told.
const MAX_BACKOFF_MS = Number(process.env.AGENT_MAX_BACKOFF_MS ?? 30_000);
const rssMb = (pid: number) => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const tc = await startTestConsole({ MQTT_EMBEDDED_PORT: String(await freePort()), AGENT_HEARTBEAT_SECONDS: '10' });
const dir = tempDir('fleetlink-bench-agent-');
const dev = await createDevice(tc.database.db, 'reconnect');
const agent = spawnAgent({ server: tc.url, device: dev.id, key: dev.key, dataDir: dir, maxBackoffMs: MAX_BACKOFF_MS });
const attempts = () => agent.output().split('\n').filter((l) => l.includes('"connection error"')).length;
try {
  await waitFor(async () => (await deviceRow(tc.database.db, dev.id)).online, 30_000, 'agent online');
  const pid = await agent.workerPid();
  await sleep(5000);
  const before = rssMb(pid);
  const broker = tc.messaging!.broker!;
  await broker.stop();
  const stoppedAt = Date.now();
  const a0 = attempts();
  console.log(`broker stopped; agent RSS before ${before.toFixed(1)} MB; backoff cap ${MAX_BACKOFF_MS} ms`);
  const samples: number[] = [];
  while (Date.now() - stoppedAt < OUTAGE * 1000) {
    await sleep(5000);
    if (agent.child.exitCode !== null) throw new Error(`the agent exited: ${agent.output().slice(-2000)}`);
    samples.push(rssMb(pid));
    console.log(`  t=${((Date.now() - stoppedAt) / 1000).toFixed(0).padStart(4)} s  RSS ${samples.at(-1)!.toFixed(1)} MB  attempts ${attempts() - a0}`);
  }
  await broker.start();
  const restartedAt = Date.now();
  await waitFor(() => tc.messaging!.hub.ping(dev.id).catch(() => undefined), 120_000, 'agent reconnected');
  const backAfter = (Date.now() - restartedAt) / 1000;
  await waitFor(async () => (await deviceRow(tc.database.db, dev.id)).online, 30_000, 'device online again');
  console.log(`outage ${OUTAGE} s: ${attempts() - a0} reconnection attempts; RSS min ${Math.min(...samples).toFixed(1)}, max ${Math.max(...samples).toFixed(1)}, end ${samples.at(-1)!.toFixed(1)} MB (before ${before.toFixed(1)} MB)`);
  console.log(`broker back: agent answering through the console after ${backAfter.toFixed(1)} s, device online (DB): yes, agent RSS ${rssMb(pid).toFixed(1)} MB`);
} finally {
  await agent.kill('SIGTERM');
  await tc.close();
  rmSync(dir, { recursive: true, force: true });
}
