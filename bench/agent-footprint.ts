/**
 * Agent footprint (issues 4 and 32): RSS and CPU of one idle agent installed as users install it,
 * with the Install page's Linux installer (into a temporary prefix; started without systemd),
 * connected to a console with its embedded broker, sampled from /proc. Target: all the agent's
 * processes together (the shell launcher and the Node.js agent; no npm or npx) under 60 MB RSS
 * after 10 minutes idle, and under 1 % of a core.
 *
 *   npx tsx bench/agent-footprint.ts            # 600 s
 *   BENCH_SECONDS=120 npx tsx bench/agent-footprint.ts
 *
 * The bundle is this checkout's agent (npm run build:bundle), released to PRODUCTION first.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, startTestConsole } from '../apps/server/src/testing/test-console.js';
import { ADMIN_EMAIL, AGENT_NODE, AGENT_NODE_VERSION, childPids, deviceRow, memberDevice, tempDir, waitFor } from '../apps/server/src/modules/broker/broker.test-support.js';
import { packAgentBundle } from '../apps/server/src/modules/releases/bundle-archives.test-support.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 600);
const TICKS = 100; // USER_HZ on Linux

function sample(pid: number) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuTicks = Number(fields[11]) + Number(fields[12]);
  const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return { cpuTicks, rssMb: rssKb / 1024, name: readFileSync(`/proc/${pid}/comm`, 'utf8').trim() };
}

/** The launcher and everything under it. */
function tree(pid: number): number[] {
  return [pid, ...childPids(pid).flatMap(tree)];
}

const tc = await startTestConsole({ MQTT_EMBEDDED_PORT: String(await freePort()), LOG_LEVEL: 'silent' });
const dir = tempDir('fleetlink-bench-agent-');
let launcher: number | undefined;
try {
  const admin = await tc.token(ADMIN_EMAIL);
  const bundle = packAgentBundle('9.9.9', dir);
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(readFileSync(bundle))]), 'bundle.tar.gz');
  if ((await tc.api('/api/bundle', { method: 'POST', token: admin, body: form })).status !== 201) throw new Error('bundle upload failed');
  await tc.api('/api/release', { method: 'POST', token: admin, json: { branch: 'PRODUCTION', version: '9.9.9', bundles: [{ name: 'fleetlink-agent', version: '9.9.9' }] } });
  const dev = await memberDevice(tc.database.db, 'footprint');
  const installer = path.join(dir, 'installer.sh');
  const res = await tc.api(`/api/device/${dev.id}/agent-download/installer`, { token: admin });
  writeFileSync(installer, Buffer.from(await res.arrayBuffer()));
  const prefix = path.join(dir, 'opt');
  execFileSync('sh', [installer, '--server', tc.url, '--device', dev.id, '--key-file', '-', '--prefix', prefix, '--unit-dir', path.join(dir, 'units')], {
    input: dev.key,
    // AGENT_NODE_OPTIONS: Node flags to try on the agent (the launcher passes its environment on).
    env: { ...process.env, PATH: `${path.dirname(AGENT_NODE)}:${process.env.PATH}`, ...(process.env.AGENT_NODE_OPTIONS ? { NODE_OPTIONS: process.env.AGENT_NODE_OPTIONS } : {}) },
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  launcher = Number(readFileSync(path.join(prefix, 'agent.pid'), 'utf8'));
  await waitFor(async () => (await deviceRow(tc.database.db, dev.id)).online, 30_000, 'agent online');
  await new Promise((r) => setTimeout(r, 5000)); // past start-up
  const total = () => tree(launcher!).map(sample);
  const first = total();
  const started = Date.now();
  const sums: number[] = [];
  while (Date.now() - started < seconds * 1000) {
    await new Promise((r) => setTimeout(r, 5000));
    sums.push(total().reduce((a, p) => a + p.rssMb, 0));
  }
  const last = total();
  const elapsed = (Date.now() - started) / 1000;
  const cpu = (list: typeof first) => list.reduce((a, p) => a + p.cpuTicks, 0);
  const cpuPct = ((cpu(last) - cpu(first)) / TICKS / elapsed) * 100;
  const avg = sums.reduce((a, b) => a + b, 0) / Math.max(1, sums.length);
  console.log(`agent footprint over ${elapsed.toFixed(0)} s, installed by the Linux installer (idle, heartbeat 30 s, metrics 60 s, ${sums.length} samples every 5 s; agent on Node.js v${AGENT_NODE_VERSION}${process.env.AGENT_NODE_OPTIONS ? `, NODE_OPTIONS=${process.env.AGENT_NODE_OPTIONS}` : ''})`);
  console.log(`  processes: ${last.map((p) => `${p.name} ${p.rssMb.toFixed(1)} MB`).join(', ')}`);
  console.log(`  all the agent's processes, RSS summed: min ${Math.min(...sums).toFixed(1)} MB, avg ${avg.toFixed(1)} MB, max ${Math.max(...sums).toFixed(1)} MB, at the end ${sums.at(-1)?.toFixed(1)} MB (target < 60 MB)`);
  console.log(`  npm or npx processes: ${last.filter((p) => /npm|npx/.test(p.name)).length}`);
  console.log(`  CPU: ${cpuPct.toFixed(3)} % of one core (target < 1 %)`);
} finally {
  if (launcher) {
    try {
      process.kill(launcher, 'SIGTERM');
    } catch {
      // gone already
    }
  }
  await new Promise((r) => setTimeout(r, 1000));
  await tc.close();
  rmSync(dir, { recursive: true, force: true });
}
