/**
 * HTTP through a tunnel at a fixed rate (issue 30): RATE requests/s (default 4,000) for SECONDS (30)
 * to a small page on the device, through the built-in proxy's ingress, an HTTP tunnel and a real agent;
 * beside it in the same run, the same load through a bare Node reverse proxy (its HTTP server and a
 * keep-alive client, no SSH, no agent: what Node's HTTP alone costs here) and straight at the service.
 * The load comes from a process of its own over CONNECTIONS keep-alive connections, and a request's
 * latency counts from when it was due (a stall delays the requests behind it, and that shows).
 * Target: no errors, p99 < 10 ms.
 *
 *   npx tsx bench/tunnel-http.ts
 *   RATE=8000 SECONDS=60 npx tsx bench/tunnel-http.ts
 *   PROXY=standalone npx tsx bench/tunnel-http.ts   # the tunnel through a fleetlink-proxy process of its own
 */
import { readFileSync } from 'node:fs';
import { percentile } from './percentile.js';
import { fleetlinkTunnel, startEnds } from './tunnel-setup.js';

const RATE = Number(process.env.RATE ?? 4000);
const SECONDS = Number(process.env.SECONDS ?? 30);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);

interface Load {
  sent: number;
  errors: number;
  latencies: number[];
}

const service = startEnds();
const load = startEnds();
const bare = startEnds();
const { port: servicePort } = await service.ask<{ port: number }>({ op: 'http-service' });
const { port: barePort } = await bare.ask<{ port: number }>({ op: 'http-proxy', port: servicePort });
const standalone = process.env.PROXY === 'standalone';
const fleetlink = await fleetlinkTunnel({ type: 'HTTP', port: servicePort, standalone });
try {
  const ingress = new URL(fleetlink.mapping);
  const run = (port: number, host: string, seconds = SECONDS) => load.ask<Load>({ op: 'http-load', port, host, rate: RATE, seconds, connections: CONNECTIONS });
  // A few seconds of each to warm up (JIT, connections), not counted.
  await run(Number(ingress.port), ingress.host, 3);
  await run(barePort, `127.0.0.1:${barePort}`, 3);
  await run(servicePort, `127.0.0.1:${servicePort}`, 3);
  // CPU seconds each process spent while the tunnel carried the load.
  const agentPid = await fleetlink.agent.workerPid();
  const pids = {
    ...(standalone ? { console: process.pid, proxy: fleetlink.proxyPid! } : { 'console and proxy': process.pid }),
    ...{ agent: agentPid, service: service.child.pid!, 'load generator': load.child.pid! },
  };
  const before = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuSeconds(pid)]));
  const tunnel = await run(Number(ingress.port), ingress.host);
  const cpu = Object.entries(pids).map(([k, pid]) => `${k} ${((cpuSeconds(pid) - before[k]!) / SECONDS * 100).toFixed(0)} %`);
  const bareBefore = cpuSeconds(bare.child.pid!);
  const plain = await run(barePort, `127.0.0.1:${barePort}`);
  const bareCpu = ((cpuSeconds(bare.child.pid!) - bareBefore) / SECONDS) * 100;
  const direct = await run(servicePort, `127.0.0.1:${servicePort}`);
  const line = (r: Load) => {
    const p = (q: number) => percentile(r.latencies, q).toFixed(2);
    return `${r.sent} requests, ${r.errors} errors; p50 ${p(50)} ms, p90 ${p(90)} ms, p99 ${p(99)} ms, max ${p(100)} ms`;
  };
  console.log(`node ${process.version}; ${RATE} requests/s for ${SECONDS} s over ${CONNECTIONS} keep-alive connections, loopback`);
  const p99 = (r: Load) => percentile(r.latencies, 99);
  console.log(`  through a Fleetlink HTTP tunnel (${standalone ? 'standalone' : 'built-in'} proxy's ingress → SSH channel → agent): ${line(tunnel)}`);
  console.log(`  through a bare Node reverse proxy (reference):                 ${line(plain)}`);
  console.log(`  straight to the service (reference):                          ${line(direct)}`);
  console.log(`  CPU while the tunnel carried it (one core = 100 %): ${cpu.join(', ')}; the bare proxy used ${bareCpu.toFixed(0)} % in its run`);
  console.log(`  p99 ratio: ${(p99(tunnel) / p99(plain)).toFixed(1)}× the bare proxy's, ${(p99(tunnel) / p99(direct)).toFixed(1)}× the direct one (target: no errors, p99 < 10 ms)`);
} finally {
  await fleetlink.close();
  for (const ends of [service, load, bare]) ends.child.kill();
}

/** User and system CPU seconds of a process so far (Linux /proc). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
