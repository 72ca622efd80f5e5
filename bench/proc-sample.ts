import { readFileSync } from 'node:fs';

/** CPU milliseconds and RSS of another process, from /proc (Linux); zeros once it is gone. */
export function procSample(pid: number): { cpuMs: number; rssMb: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return { cpuMs: (Number(f[11]) + Number(f[12])) * 10, rssMb: rssKb / 1024 };
  } catch {
    return { cpuMs: 0, rssMb: 0 };
  }
}
