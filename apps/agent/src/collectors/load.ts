import os from 'node:os';

type Times = { idle: number; total: number };

const snapshot = (): Times =>
  os.cpus().reduce(
    (acc, c) => {
      const t = c.times;
      acc.idle += t.idle;
      acc.total += t.user + t.nice + t.sys + t.idle + t.irq;
      return acc;
    },
    { idle: 0, total: 0 },
  );

/** System CPU utilization (0 to 1) since the previous call: what `systemLoad` means. */
export class LoadSampler {
  private last = snapshot();

  sample(): number {
    const now = snapshot();
    const total = now.total - this.last.total;
    const idle = now.idle - this.last.idle;
    this.last = now;
    if (total <= 0) return 0;
    return Math.min(1, Math.max(0, 1 - idle / total));
  }
}
