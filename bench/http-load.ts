import http from 'node:http';
import { percentile } from './percentile.js';

export interface LoadResult {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers that were not 2xx, and requests that failed. */
  errors: number;
}

/**
 * A closed-loop HTTP load, as autocannon makes it: `connections` keep-alive connections, each sending
 * its next request as soon as the answer to the last one is read, for `seconds` (after `warmupSeconds`
 * not counted). `path` is called for every request, so a run can spread over many ids.
 */
export async function drive(o: {
  base: string;
  path: () => string;
  headers?: Record<string, string>;
  connections?: number;
  seconds?: number;
  warmupSeconds?: number;
}): Promise<LoadResult> {
  const connections = o.connections ?? 20;
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const base = new URL(o.base);
  const one = () =>
    new Promise<number>((resolve) => {
      const req = http.request(
        { host: base.hostname, port: base.port, path: o.path(), agent, headers: { 'accept-encoding': 'identity', ...o.headers } },
        (res) => {
          res.on('data', () => {});
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
      req.on('error', () => resolve(0));
      req.end();
    });
  const run = async (seconds: number, times: number[] | undefined) => {
    let errors = 0;
    const end = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < end) {
          const start = performance.now();
          const status = await one();
          times?.push(performance.now() - start);
          if (status < 200 || status > 299) errors++;
        }
      }),
    );
    return errors;
  };
  await run(o.warmupSeconds ?? 2, undefined);
  const times: number[] = [];
  const seconds = o.seconds ?? 10;
  const errors = await run(seconds, times);
  agent.destroy();
  return { requests: times.length, perSecond: times.length / seconds, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), errors };
}
