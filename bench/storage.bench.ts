/**
 * Storage listing benchmark (issue 26): the agent's `file` command on a folder of 100,000 entries,
 * first page and last page, beside the reference in the same process: a bare `readdir` of the same
 * folder (what any listing must at least do). Also the agent's memory after the listings.
 *
 *   npx tsx bench/storage.bench.ts
 *   BENCH_ENTRIES=500000 BENCH_ITERATIONS=10 npx tsx bench/storage.bench.ts
 *
 * Target: a page well inside the command's default deadline (30 s), memory bounded by the names.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drives } from '../apps/agent/src/collectors/drives.js';
import { listFolder } from '../apps/agent/src/files/list-folder.js';
import { percentile } from './percentile.js';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 100_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 20);

const folder = mkdtempSync(path.join(tmpdir(), 'fleetlink-bench-storage-'));
try {
  execFileSync('sh', ['-c', `seq -f f%.0f 0 ${ENTRIES - 1} | xargs touch`], { cwd: folder });
  const rssBefore = process.memoryUsage().rss;

  async function time(run: () => Promise<unknown>): Promise<number[]> {
    await run(); // warm the cache: every run reads the same, cached, directory
    const ms: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      const started = performance.now();
      await run();
      ms.push(performance.now() - started);
    }
    return ms;
  }

  const reference = await time(() => readdir(folder));
  const first = await time(() => listFolder({ path: folder }, drives));
  const last = await time(() => listFolder({ path: folder, offset: String(ENTRIES - 500) }, drives));
  const rssAfter = process.memoryUsage().rss;

  const line = (name: string, ms: number[]) => {
    const p50 = percentile(ms, 50);
    const ratio = p50 / percentile(reference, 50);
    return `${name.padEnd(28)} p50 ${p50.toFixed(1)} ms  p95 ${percentile(ms, 95).toFixed(1)} ms  (${ratio.toFixed(2)}× readdir)`;
  };
  console.log(`${ENTRIES.toLocaleString('en-US')} entries, ${ITERATIONS} runs each`);
  console.log(line('readdir (reference)', reference));
  console.log(line('file: first page', first));
  console.log(line('file: last page', last));
  console.log(`RSS ${(rssBefore / 2 ** 20).toFixed(0)} MB before, ${(rssAfter / 2 ** 20).toFixed(0)} MB after all runs`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
