import { describe, expect, it, vi } from 'vitest';
import { backoffMs, retryEnrollment, SingleFlight } from './enrollment-loop.js';

class Refused extends Error {}
const isRefusal = (err: unknown) => err instanceof Refused;
const failure = (retryAfterMs?: number) => Object.assign(new Error('HTTP 503'), { retryAfterMs });

/** An attempt that fails with the given errors, in order, then answers 'enrolled'. */
function attempts(...errors: Error[]) {
  let n = 0;
  return vi.fn(async () => {
    const err = errors[n++];
    if (err) throw err;
    return 'enrolled';
  });
}

describe('agent enrollment retries', () => {
  // The log lines go to stderr; the test reads the delays from the injected sleep instead.
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);

  it('spreads each delay over 50% to 150% of a doubling step, up to the cap', () => {
    const step = { baseMs: 1000, capMs: 60_000 };
    expect([0, 1, 2, 3].map((n) => backoffMs(n, step, () => 0.5))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffMs(0, step, () => 0)).toBe(500);
    expect(backoffMs(0, step, () => 0.999)).toBe(1499);
    expect(backoffMs(20, step, () => 0.5)).toBe(60_000);
  });

  it('retries failures with growing, jittered delays, and waits out what a 429 asks', async () => {
    const delays: number[] = [];
    const attempt = attempts(failure(), failure(), failure(45_000), failure());
    const result = await retryEnrollment(attempt, isRefusal, { onRefusal: 'end', sleep: async (ms) => void delays.push(ms), random: () => 0.5 });
    expect(result).toBe('enrolled');
    expect(attempt).toHaveBeenCalledTimes(5);
    expect(delays).toEqual([1000, 2000, 45_000, 8000]);
  });

  it('ends a first run on a refusal, and makes a running agent ask again rarely', async () => {
    await expect(retryEnrollment(attempts(new Refused('used key')), isRefusal, { onRefusal: 'end', sleep: async () => {} })).rejects.toThrow('used key');

    const delays: number[] = [];
    const attempt = attempts(new Refused('retired'), new Refused('retired'), failure());
    const result = await retryEnrollment(attempt, isRefusal, { onRefusal: 'retry', sleep: async (ms) => void delays.push(ms), random: () => 0.5 });
    expect(result).toBe('enrolled');
    expect(delays).toEqual([30_000, 60_000, 1000]);
  });

  it('stops asking once the agent stops', async () => {
    let stopped = false;
    const attempt = attempts(failure(), failure(), failure());
    const result = await retryEnrollment(attempt, isRefusal, {
      onRefusal: 'retry',
      stopped: () => stopped,
      sleep: async () => {
        stopped = true;
      },
    });
    expect(result).toBeUndefined();
    expect(attempt).toHaveBeenCalledTimes(1);
  });
});

describe('SingleFlight', () => {
  it('runs one task at a time: calls while it runs join it, and the next call starts anew', async () => {
    const flight = new SingleFlight<number>();
    let started = 0;
    let finish!: (n: number) => void;
    const task = () => {
      started++;
      return new Promise<number>((r) => (finish = r));
    };
    const calls = Array.from({ length: 20 }, () => flight.run(task));
    expect(started).toBe(1);
    expect(flight.run(task)).toBe(calls[0]);
    finish(7);
    expect(await Promise.all(calls)).toEqual(Array(20).fill(7));
    const next = flight.run(task);
    expect(started).toBe(2);
    finish(8);
    expect(await next).toBe(8);
  });

  it('is free again after a task fails', async () => {
    const flight = new SingleFlight<void>();
    await expect(flight.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    let ran = false;
    await flight.run(async () => {
      ran = true;
    });
    expect(ran).toBe(true);
  });
});
