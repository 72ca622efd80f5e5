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

/**
 * The whole machine's busy and total CPU time in milliseconds, all cores (from /proc/stat): what
 * the console shares the machine with (PostgreSQL, Mosquitto, the simulated fleet) shows in it.
 */
export function machineSample(): { busyMs: number; totalMs: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
  const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = cpu[3]! + cpu[4]!;
  return { busyMs: (total - idle) * 10, totalMs: total * 10 };
}
