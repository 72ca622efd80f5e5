/**
 * Agent footprint: RSS and CPU of one idle agent (the real CLI, a child process) connected to a
 * console with its embedded broker, sampled from /proc. Target (issue 4): under 60 MB RSS and
 * under 1 % of a core over 10 minutes. The agent runs under its launcher (which restarts it): the
 * figure is the agent's RSS plus the launcher's private memory, since the two share Node's code
 * pages; the launcher's own RSS is printed beside it.
 *
 *   npx tsx bench/agent-footprint.ts            # 600 s
 *   BENCH_SECONDS=120 npx tsx bench/agent-footprint.ts
 *
 * The agent runs as users run it: `node apps/agent/bin/fleetlink-agent.mjs run …`, the launcher
 * loading the esbuild bundle in apps/agent/dist (built first when missing or stale). Extra Node
 * flags for the agent can be tried with AGENT_NODE_OPTIONS.
 */
import { readFileSync, rmSync } from 'node:fs';
import { freePort, startTestConsole } from '../apps/server/src/testing/test-console.js';
import { createDevice, deviceRow, spawnAgent, tempDir, waitFor } from '../apps/server/src/modules/broker/broker.test-support.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 600);
const TICKS = 100; // USER_HZ on Linux

/** Private (unshared) resident memory of a process, MB: what it adds beside another Node process. */
function privateMb(pid: number) {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0);
  return (kb('Private_Clean') + kb('Private_Dirty')) / 1024;
}

function sample(pid: number) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuTicks = Number(fields[11]) + Number(fields[12]);
  const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return { cpuTicks, rssMb: rssKb / 1024 };
}

const tc = await startTestConsole({ MQTT_EMBEDDED_PORT: String(await freePort()), LOG_LEVEL: 'silent' });
const dir = tempDir('fleetlink-bench-agent-');
const dev = await createDevice(tc.database.db, 'footprint');
const agent = spawnAgent({ server: tc.url, device: dev.id, key: dev.key, dataDir: dir });
try {
  await waitFor(async () => (await deviceRow(tc.database.db, dev.id)).online, 30_000, 'agent online');
  const pid = await agent.workerPid();
  const launcher = agent.child.pid!;
  await new Promise((r) => setTimeout(r, 5000)); // past start-up
  const first = sample(pid);
  const started = Date.now();
  let peak = first.rssMb;
  let low = first.rssMb;
  const rss: number[] = [];
  while (Date.now() - started < seconds * 1000) {
    await new Promise((r) => setTimeout(r, 5000));
    const s = sample(pid);
    peak = Math.max(peak, s.rssMb);
    low = Math.min(low, s.rssMb);
    rss.push(s.rssMb);
  }
  const last = sample(pid);
  const elapsed = (Date.now() - started) / 1000;
  const cpuPct = ((last.cpuTicks - first.cpuTicks) / TICKS / elapsed) * 100;
  const avg = rss.reduce((a, b) => a + b, 0) / Math.max(1, rss.length);
  const launcherPrivate = privateMb(launcher);
  console.log(`agent footprint over ${elapsed.toFixed(0)} s (idle, heartbeat 30 s, metrics 60 s, ${rss.length} samples every 5 s; node ${process.version}${process.env.AGENT_NODE_OPTIONS ? `, NODE_OPTIONS=${process.env.AGENT_NODE_OPTIONS}` : ''})`);
  console.log(`  agent RSS: min ${low.toFixed(1)} MB, avg ${avg.toFixed(1)} MB, max ${peak.toFixed(1)} MB (start ${first.rssMb.toFixed(1)}, end ${last.rssMb.toFixed(1)})`);
  console.log(`  launcher: ${launcherPrivate.toFixed(1)} MB private (RSS ${sample(launcher).rssMb.toFixed(1)} MB, mostly Node's code shared with the agent)`);
  console.log(`  agent + launcher: max ${(peak + launcherPrivate).toFixed(1)} MB (target < 60 MB)`);
  console.log(`  CPU: ${cpuPct.toFixed(3)} % of one core (target < 1 %)`);
} finally {
  await agent.kill('SIGTERM');
  await tc.close();
  rmSync(dir, { recursive: true, force: true });
}
