import { describe, expect, it } from 'vitest';
import { jsonFromFreshNode, STRIPS_TYPESCRIPT } from './fresh-node.test-support.js';
import { compactWhenIdle } from './idle-compaction.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('compactWhenIdle', () => {
  it('collects once the agent has been idle a period, then again only when the heap has grown', async () => {
    const calls: unknown[] = [];
    const stop = compactWhenIdle((options?: unknown) => void calls.push(options), { periodMs: 100, growthBytes: 1 << 30 });
    await sleep(550);
    stop();
    expect(calls).toEqual([{ type: 'major', execution: 'sync', flavor: 'last-resort' }]);
  });

  it('leaves a busy agent alone', async () => {
    const calls: unknown[] = [];
    const stop = compactWhenIdle(() => void calls.push(1), { periodMs: 100, growthBytes: 0 });
    // The event loop busy most of each period, as with a tunnel at work.
    const work = setInterval(() => {
      const until = performance.now() + 15;
      while (performance.now() < until);
    }, 20);
    await sleep(550);
    clearInterval(work);
    stop();
    expect(calls).toEqual([]);
  });

  it('does nothing without gc (Node started without --expose-gc)', () => {
    expect(compactWhenIdle(undefined)).toBeTypeOf('function');
  });

  // In a Node of its own with the launchers' flags, running idle-compaction.ts as it is (22.10+);
  // the young generation that stays grown is Node 24's.
  it.skipIf(!STRIPS_TYPESCRIPT)('gives back the heap a burst of work grew', async () => {
    const script = `
      import v8 from 'node:v8';
      import { compactWhenIdle } from ${JSON.stringify(new URL('./idle-compaction.ts', import.meta.url).href)};
      const size = () => v8.getHeapStatistics().total_heap_size;
      const start = size();
      // A burst of work: short-lived objects grow the young generation, long-lived ones the old.
      let keep = [];
      for (let i = 0; i < 200_000; i++) { keep.push({ i, s: 'x'.repeat(i % 50) }); if (keep.length > 50_000) keep = []; }
      keep = undefined;
      const grown = size();
      compactWhenIdle(globalThis.gc, { periodMs: 200 });
      setTimeout(() => console.log(JSON.stringify({ start, grown, after: size() })), 700);`;
    const { start, grown, after } = await jsonFromFreshNode<{ start: number; grown: number; after: number }>(script, { flags: ['--expose-gc', '--scavenger-max-new-space-capacity-mb=8'] });
    // Grown by tens of MB; left alone, the young generation stays so (42 MB where 10 at the start).
    expect(grown - start).toBeGreaterThan(16 << 20);
    expect(after - start).toBeLessThan(2 << 20);
  });
});
