import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AGENT_VERSION } from '../version.js';

function swap(): { total: number; free: number } {
  if (process.platform !== 'linux') return { total: 0, free: 0 };
  try {
    const info = readFileSync('/proc/meminfo', 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(info)?.[1] ?? 0) * 1024;
    return { total: kb('SwapTotal'), free: kb('SwapFree') };
  } catch {
    return { total: 0, free: 0 };
  }
}

function osName(): string {
  if (process.platform === 'linux') {
    try {
      const rel = readFileSync('/etc/os-release', 'utf8');
      const pretty = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(rel)?.[1];
      if (pretty) return pretty;
    } catch {
      // fall through
    }
  }
  return ({ darwin: 'macOS', win32: 'Windows', linux: 'Linux' } as Record<string, string>)[process.platform] ?? os.type();
}

function threadCount(): number {
  // Node has one JavaScript thread plus libuv's pool and V8's helpers; Linux tells the truth.
  if (process.platform === 'linux') {
    try {
      const n = Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
      if (n > 0) return n;
    } catch {
      // fall through
    }
  }
  return 1 + Number(process.env.UV_THREADPOOL_SIZE ?? 4);
}

/**
 * The property keys of SPEC §3 with this machine's real values. The java.* keys describe the
 * agent's runtime, which is Node.js, and say so.
 */
export function collectProperties(systemLoad: number): Record<string, string> {
  const mem = process.memoryUsage();
  const sw = swap();
  const user = os.userInfo();
  return {
    'os.name': osName(),
    'os.version': os.release(),
    'os.arch': os.arch(),
    'user.name': user.username,
    'user.home': user.homedir,
    'user.dir': process.cwd(),
    hostname: os.hostname(),
    'cpu.count': String(os.availableParallelism()),
    'cpu.sys.load': systemLoad.toFixed(4),
    'mem.total': String(os.totalmem()),
    'mem.free': String(os.freemem()),
    'swap.total': String(sw.total),
    'swap.free': String(sw.free),
    'java.mem.total': String(mem.heapTotal),
    'java.mem.free': String(Math.max(0, mem.heapTotal - mem.heapUsed)),
    'java.thread.alive': String(threadCount()),
    'java.name': 'Node.js',
    'java.version': process.versions.node,
    'java.home': path.dirname(path.dirname(process.execPath)),
    'agent.bundle.version': AGENT_VERSION,
    'agent.launcher.version': AGENT_VERSION,
    'update.bundle.version': AGENT_VERSION,
  };
}
