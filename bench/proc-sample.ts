import { readdirSync, readFileSync } from 'node:fs';

/**
 * A process's name and the fields of /proc/<pid>/stat after it (f[11] utime, f[12] stime, f[13]
 * cutime, f[14] cstime, in 10 ms ticks); throws once it is gone.
 */
function statOf(pid: number | string): { name: string; f: string[] } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const end = stat.lastIndexOf(')');
  return { name: stat.slice(stat.indexOf('(') + 1, end), f: stat.slice(end + 2).split(' ') };
}

/** CPU milliseconds and RSS of another process, from /proc (Linux); zeros once it is gone. */
export function procSample(pid: number): { cpuMs: number; rssMb: number } {
  try {
    const { f } = statOf(pid);
    const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return { cpuMs: (Number(f[11]) + Number(f[12])) * 10, rssMb: rssKb / 1024 };
  } catch {
    return { cpuMs: 0, rssMb: 0 };
  }
}

/**
 * Milliseconds a process's main thread (for Node, the JavaScript thread) has run on a CPU and has
 * waited, runnable, for one (from /proc/<pid>/schedstat, Linux): an event loop that is late while
 * its thread waited tells a starved process from a busy one. Zeros once it is gone.
 */
export function schedSample(pid: number): { runMs: number; waitMs: number } {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
    return { runMs: run! / 1e6, waitMs: wait! / 1e6 };
  } catch {
    return { runMs: 0, waitMs: 0 };
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

/**
 * CPU milliseconds of a whole PostgreSQL server on this machine: every `postgres` process, and what
 * the postmaster has reaped of backends that ended (a pool's connection that closed keeps its
 * share). Zero where PostgreSQL does not run here.
 */
export function postgresCpuMs(): number {
  let ms = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const { name, f } = statOf(pid);
      if (name !== 'postgres') continue;
      // utime and stime, then cutime and cstime: what a process reaped of its children, which for the
      // postmaster is every backend that ended (the others reap none).
      ms += (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10;
    } catch {
      // Ended between the listing and the read: its time is the postmaster's now.
    }
  }
  return ms;
}
