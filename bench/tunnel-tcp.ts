/**
 * TCP throughput through a tunnel (issue 30), beside OpenSSH in the same run: BYTES (default 512 MiB)
 * sent by a client on this machine through a TCP tunnel to a service "on the device" that counts
 * them, timed until the count came back, ROUNDS times each way, alternating:
 *   - Fleetlink: the console with its built-in proxy (this process), a real agent (launcher and
 *     bundle) and a TCP tunnel: client → proxy port → SSH channel → agent → service;
 *   - OpenSSH: `ssh -N -R` from this machine to an sshd of its own (Debian openssh-server), the same
 *     service: client → sshd's port → SSH channel → ssh → service.
 * Client and service run in a process of their own (bench/tunnel-ends.ts). Target: Fleetlink ≥ 90 % of
 * OpenSSH's MB/s (the medians).
 *
 *   npx tsx bench/tunnel-tcp.ts
 *   BYTES=1073741824 ROUNDS=5 npx tsx bench/tunnel-tcp.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { AGENT_NODE_VERSION } from '../apps/server/src/modules/broker/broker.test-support.js';
import { freePort } from '../apps/server/src/testing/test-console.js';
import { requireSshd, startLocalSshd, waitForPort } from './local-sshd.js';
import { percentile } from './percentile.js';
import { fleetlinkTunnel, startEnds } from './tunnel-setup.js';

const BYTES = Number(process.env.BYTES ?? 512 * 1024 * 1024);
const ROUNDS = Number(process.env.ROUNDS ?? 3);

const mbps = (ms: number) => BYTES / 1048576 / (ms / 1000);

/** `ssh -N -R` to an sshd of its own, forwarding a port to `servicePort`. */
async function openSshTunnel(servicePort: number): Promise<{ port: number; cipher: string; close(): void }> {
  const sshd = await startLocalSshd();
  const remotePort = await freePort();
  let out = '';
  const ssh: ChildProcess = spawn('ssh', ['-v', '-N', '-R', `${remotePort}:127.0.0.1:${servicePort}`, '-o', 'ExitOnForwardFailure=yes', ...sshd.sshArgs], { stdio: ['ignore', 'ignore', 'pipe'] });
  ssh.stderr!.on('data', (d) => (out += d));
  await waitForPort(remotePort);
  return {
    port: remotePort,
    cipher: /kex: server->client cipher: (\S+)/.exec(out)?.[1] ?? 'unknown',
    close() {
      ssh.kill();
      sshd.close();
    },
  };
}

requireSshd();
const ends = startEnds();
const { port: servicePort } = await ends.ask<{ port: number }>({ op: 'sink' });
const fleetlink = await fleetlinkTunnel({ type: 'TCP', port: servicePort });
const openssh = await openSshTunnel(servicePort);
try {
  const fleetlinkPort = Number(fleetlink.mapping.split(':').pop());
  const times = { fleetlink: [] as number[], openssh: [] as number[] };
  // One round each to warm up (JIT, TCP windows), not counted.
  await ends.ask({ op: 'send', port: fleetlinkPort, bytes: 64 * 1048576 });
  await ends.ask({ op: 'send', port: openssh.port, bytes: 64 * 1048576 });
  for (let round = 0; round < ROUNDS; round++) {
    times.fleetlink.push((await ends.ask<{ ms: number }>({ op: 'send', port: fleetlinkPort, bytes: BYTES })).ms);
    times.openssh.push((await ends.ask<{ ms: number }>({ op: 'send', port: openssh.port, bytes: BYTES })).ms);
  }
  const median = (xs: number[]) => mbps(percentile(xs, 50));
  const f = median(times.fleetlink);
  const o = median(times.openssh);
  console.log(`console on Node.js ${process.version}, agent on v${AGENT_NODE_VERSION}; ${(BYTES / 1048576).toFixed(0)} MiB per round, ${ROUNDS} rounds each (alternating), loopback`);
  console.log(`  Fleetlink tunnel (proxy + agent, ssh2): median ${f.toFixed(0)} MB/s  (rounds: ${times.fleetlink.map((t) => mbps(t).toFixed(0)).join(', ')})`);
  console.log(`  OpenSSH ssh -R to sshd (${openssh.cipher}): median ${o.toFixed(0)} MB/s  (rounds: ${times.openssh.map((t) => mbps(t).toFixed(0)).join(', ')})`);
  console.log(`  ratio: ${((f / o) * 100).toFixed(0)} % of OpenSSH (target ≥ 90 %)`);
} finally {
  openssh.close();
  await fleetlink.close();
  ends.child.kill();
}
