import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { extract } from 'tar';
import { AGENT_NODE, agentPidUnder, launched, type AgentProcess } from '../broker/broker.test-support.js';

/**
 * An installation folder as the installer lays it out (launcher/fleetlink-agent's header): the
 * bundle unpacked into bundles/{version}, its shell launcher beside them, `current` naming it.
 */
export async function installBundle(home: string, bundleFile: string, version: string): Promise<void> {
  const dir = path.join(home, 'bundles', version);
  mkdirSync(dir, { recursive: true });
  await extract({ file: bundleFile, cwd: dir });
  copyFileSync(path.join(dir, 'launcher', 'fleetlink-agent'), path.join(home, 'fleetlink-agent'));
  writeFileSync(path.join(home, 'current'), `${version}\n`);
}

/** The processes of this machine whose command line holds `secret` (what `ps` shows every user). */
export function commandLinesHolding(secret: string): string[] {
  return readdirSync('/proc').flatMap((pid) => {
    if (!/^\d+$/.test(pid)) return [];
    try {
      const line = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      return line.includes(secret) ? [`${pid}: ${line}`] : [];
    } catch {
      return []; // ended meanwhile
    }
  });
}

/** Runs an installation's launcher (sh) as the Install page's portable command does, with the key in the environment. */
export function runInstalled(home: string, args: { server: string; device: string; key?: string; env?: Record<string, string> }): AgentProcess {
  const child = spawn('sh', [path.join(home, 'fleetlink-agent'), 'run', '--server', args.server, '--device', args.device], {
    env: { ...process.env, FLEETLINK_AGENT_MAX_BACKOFF_MS: '1000', FLEETLINK_AGENT_KEY: args.key ?? '', FLEETLINK_NODE: AGENT_NODE, ...args.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return launched(child, () => agentPidUnder(child.pid!));
}
