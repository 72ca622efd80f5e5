import { readFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface Drive {
  name: string;
  root: string;
  totalSpace: number;
  freeSpace: number;
}

const VIRTUAL = new Set(['proc', 'sysfs', 'devtmpfs', 'devpts', 'tmpfs', 'cgroup', 'cgroup2', 'securityfs', 'pstore', 'debugfs', 'tracefs',
  'mqueue', 'hugetlbfs', 'configfs', 'fusectl', 'bpf', 'autofs', 'binfmt_misc', 'rpc_pipefs', 'nsfs', 'squashfs', 'overlay', 'ramfs', 'efivarfs']);

/** Mount points worth showing: real filesystems on Linux, drive letters on Windows, / elsewhere. */
function roots(): { name: string; root: string }[] {
  if (process.platform === 'win32') {
    return 'CDEFGHIJKLMNOPQRSTUVWXYZ'.split('').map((l) => ({ name: `${l}:`, root: `${l}:\\` }));
  }
  if (process.platform === 'linux') {
    try {
      const seen = new Set<string>();
      const found = readFileSync('/proc/mounts', 'utf8')
        .split('\n')
        .map((line) => line.split(' '))
        .filter(([dev, mount, type]) => dev && mount && type && !VIRTUAL.has(type) && !mount.startsWith('/proc') && !mount.startsWith('/sys'))
        .filter(([dev]) => (seen.has(dev!) ? false : (seen.add(dev!), true)))
        .map(([dev, mount]) => ({ name: path.basename(dev!) || dev!, root: mount!.replace(/\\040/g, ' ') }));
      if (found.length) return found.slice(0, 32);
    } catch {
      // fall through
    }
  }
  return [{ name: os.platform() === 'darwin' ? 'Macintosh HD' : '/', root: '/' }];
}

/** Total and free bytes of each drive (SPEC §3 drives). */
export async function drives(): Promise<Drive[]> {
  const out: Drive[] = [];
  for (const r of roots()) {
    try {
      const s = await statfs(r.root);
      if (!s.blocks) continue;
      out.push({ ...r, totalSpace: s.blocks * s.bsize, freeSpace: s.bavail * s.bsize });
    } catch {
      // Missing drive letters and unreadable mounts are simply not there.
    }
  }
  return out;
}
