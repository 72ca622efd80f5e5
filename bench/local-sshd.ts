import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { freePort } from '../apps/server/src/testing/test-console.js';

/** The OpenSSH server the benchmarks compare with (Debian openssh-server), or SSHD=path. */
export const SSHD = process.env.SSHD ?? '/usr/sbin/sshd';

export interface LocalSshd {
  port: number;
  /** `ssh` arguments that log in to it as this user with its key, before the command. */
  sshArgs: string[];
  close(): void;
}

/** Stops the benchmark with how to get sshd when the machine has none. */
export function requireSshd(): void {
  if (existsSync(SSHD)) return;
  console.error(`This benchmark compares with OpenSSH: it needs ${SSHD} (Debian: apt-get install openssh-server), or SSHD=path.`);
  process.exit(2);
}

/** An sshd of its own on a free loopback port, key login only, with a key made for the run. */
export async function startLocalSshd(): Promise<LocalSshd> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fleetlink-sshd-'));
  const keygen = (file: string) => spawnSync('ssh-keygen', ['-q', '-N', '', '-t', 'ed25519', '-f', file]);
  keygen(path.join(dir, 'host'));
  keygen(path.join(dir, 'client'));
  writeFileSync(path.join(dir, 'authorized_keys'), readFileSync(path.join(dir, 'client.pub')));
  const port = await freePort();
  const config = path.join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${dir}/host`,
      `PidFile ${dir}/sshd.pid`,
      `AuthorizedKeysFile ${dir}/authorized_keys`,
      'StrictModes no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'PermitRootLogin prohibit-password',
      'AllowTcpForwarding yes',
      '',
    ].join('\n'),
  );
  mkdirSync('/run/sshd', { recursive: true });
  const sshd = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  await waitForPort(port);
  return {
    port,
    sshArgs: ['-i', `${dir}/client`, '-p', String(port), '-o', 'StrictHostKeyChecking=no', '-o', `UserKnownHostsFile=${dir}/known_hosts`, `${userInfo().username}@127.0.0.1`],
    close() {
      sshd.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function waitForPort(port: number, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listens on 127.0.0.1:${port} after ${ms} ms`);
}
