import { describe, expect, it } from 'vitest';
import { DeviceWorkQueue } from './device-work-queue.js';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('DeviceWorkQueue', () => {
  it('runs at most `concurrency` jobs at once, and every job', async () => {
    const queue = new DeviceWorkQueue(3);
    let running = 0;
    let peak = 0;
    const done = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        queue.run(`device-${i}`, async () => {
          peak = Math.max(peak, ++running);
          await tick();
          running--;
          return i;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(done).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(queue.backlog).toBe(0);
  });

  it('keeps one device’s jobs in arrival order, never two at once, while others go ahead', async () => {
    const queue = new DeviceWorkQueue(4);
    const seen: string[] = [];
    let aRunning = false;
    const jobs: Promise<void>[] = [];
    for (let i = 0; i < 5; i++) {
      jobs.push(
        queue.run('a', async () => {
          expect(aRunning).toBe(false);
          aRunning = true;
          await tick();
          seen.push(`a${i}`);
          aRunning = false;
        }),
      );
      jobs.push(queue.run(`b${i}`, async () => void seen.push(`b${i}`)));
    }
    await Promise.all(jobs);
    expect(seen.filter((s) => s.startsWith('a'))).toEqual(['a0', 'a1', 'a2', 'a3', 'a4']);
    // The other devices did not wait for all of a's jobs.
    expect(seen.indexOf('b4')).toBeLessThan(seen.indexOf('a4'));
  });

  it('passes a failure to its caller and goes on with the next job', async () => {
    const queue = new DeviceWorkQueue(1);
    const failed = queue.run('a', async () => {
      throw new Error('database away');
    });
    const thrownSync = queue.run('a', () => {
      throw new Error('not even a promise');
    });
    const next = queue.run('a', async () => 'fine');
    await expect(failed).rejects.toThrow('database away');
    await expect(thrownSync).rejects.toThrow('not even a promise');
    await expect(next).resolves.toBe('fine');
  });

  it('drains a burst of 20,000 devices without growing the stack', async () => {
    const queue = new DeviceWorkQueue(6);
    let n = 0;
    await Promise.all(Array.from({ length: 20_000 }, (_, i) => queue.run(`d${i}`, async () => void n++)));
    expect(n).toBe(20_000);
  });

  it('lets a released job wait for its batch while other devices go ahead, and its device still waits for it', async () => {
    const queue = new DeviceWorkQueue(2);
    let openBatch!: () => void;
    const batch = new Promise<void>((r) => (openBatch = r));
    const seen: string[] = [];
    // Ten devices' jobs release their place and wait for one batch: with two places, all ten get in.
    const waiting = Array.from({ length: 10 }, (_, i) =>
      queue.run(`d${i}`, async (release) => {
        seen.push(`in ${i}`);
        release();
        release(); // twice is once
        await batch;
        seen.push(`out ${i}`);
      }),
    );
    const next = queue.run('d0', async () => void seen.push('d0 next'));
    await tick();
    expect(seen.filter((s) => s.startsWith('in'))).toHaveLength(10);
    expect(seen).not.toContain('d0 next');
    openBatch();
    await Promise.all([...waiting, next]);
    expect(seen.indexOf('d0 next')).toBeGreaterThan(seen.indexOf('out 0'));
    // The places given back are not counted twice: still at most two at once.
    let running = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        queue.run(`e${i}`, async () => {
          peak = Math.max(peak, ++running);
          await tick();
          running--;
        }),
      ),
    );
    expect(peak).toBe(2);
  });

  it('admits readers while the backlog is under its maximum, and holds them until half of it is done', async () => {
    const queue = new DeviceWorkQueue(2, 10);
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const admitted: number[] = [];
    const jobs: Promise<void>[] = [];
    // A reader as the hub is one: a message read, its job given, then the next read once admitted.
    const read = (i: number) => {
      if (i === 30) return;
      jobs.push(queue.run(`d${i % 3}`, () => gate));
      queue.admit(() => {
        admitted.push(i);
        read(i + 1);
      });
    };
    read(0);
    await tick();
    // Nine jobs admitted the reader after them; the tenth holds it.
    expect(queue.backlog).toBe(10);
    expect(queue.behind).toBe(true);
    expect(admitted).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    open();
    await new Promise<void>((resolve) => {
      const check = () => (admitted.length === 30 ? resolve() : setTimeout(check, 1));
      check();
    });
    await Promise.all(jobs);
    expect(queue.backlog).toBe(0);
    expect(queue.behind).toBe(false);
    // Without a bound, never behind.
    expect(new DeviceWorkQueue(2).behind).toBe(false);
  });

  it('says when it is idle: at once when empty, else once its last job has settled', async () => {
    const queue = new DeviceWorkQueue(2);
    await queue.idle();
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const jobs = [1, 2, 3].map((i) => queue.run(`d${i}`, () => gate));
    let idle = false;
    void queue.idle().then(() => (idle = true));
    await tick();
    expect(idle).toBe(false);
    open();
    await Promise.all(jobs);
    await tick();
    expect(idle).toBe(true);
  });
});
