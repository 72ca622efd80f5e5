import { performance } from 'node:perf_hooks';

/** Busier than this share of the last period (the event loop's utilization), the agent is at work. */
const IDLE_UTILIZATION = 0.02;

/** Node's gc() as the agent calls it. */
type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => unknown;

/**
 * Gives memory back while the agent is idle. V8 keeps the heap it grew while starting or working (a
 * tunnel, a transfer): Node 24's young generation stays at its largest, code used once stays
 * compiled. A last-resort collection (V8's memory-reducing one) shrinks them: an idle agent on
 * Node 24 goes from 70 to 63 MB (issue 73). It runs at most once a period, only when the event loop
 * was idle through the period and the heap has grown by `growthBytes` since the last one, so it never
 * pauses work in progress. `gc` is Node's, given by the launchers' --expose-gc (bin/node-flags.mjs);
 * without it there is nothing to do.
 */
export function compactWhenIdle(gc: Collect | undefined = globalThis.gc, { periodMs = 60_000, growthBytes = 2 << 20 } = {}): () => void {
  if (typeof gc !== 'function') return () => {};
  let before = performance.eventLoopUtilization();
  let compactedAt = -Infinity; // the first idle period always collects: what starting grew
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, before).utilization;
    before = now;
    // (The heap's size from process.memoryUsage(): node:v8 would be one more module to carry.)
    if (busy > IDLE_UTILIZATION || process.memoryUsage().heapTotal < compactedAt + growthBytes) return;
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    compactedAt = process.memoryUsage().heapTotal;
    before = performance.eventLoopUtilization();
  }, periodMs);
  timer.unref();
  return () => clearInterval(timer);
}
