import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rateLimitWindows } from '../../db/schema/index.js';

/** A window that started this long ago has ended (every limit's is an hour at most): the purge takes it. */
const KEEP_ENDED_MS = 24 * 3600_000;

/**
 * The rate limits' counters in the database (DESIGN §5b): @fastify/rate-limit counts in each
 * process's memory by default, so behind a balancer every console would allow the whole limit again.
 * One statement per request counts into the key's row, starting a new window once the old one ended.
 */
export class SharedRateLimits {
  constructor(private readonly db: Db) {}

  /** The store class for one use of the plugin: `scope` keeps its keys apart from other uses'. */
  store(scope: string): FastifyRateLimitStoreCtor {
    const limits = this;
    class Store implements FastifyRateLimitStore {
      incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
        limits.hit(`${scope}:${key}`, timeWindow).then((r) => callback(null, r), (err: Error) => callback(err));
      }
      child(): FastifyRateLimitStore {
        return this;
      }
    }
    return Store;
  }

  /** Counts one request under `key`; answers the hits in its window and the window's milliseconds left. */
  async hit(key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
    const window = sql`make_interval(secs => ${windowMs / 1000})`;
    const ended = sql`${rateLimitWindows.windowStart} + ${window} <= now()`;
    const { rows } = await this.db.execute<{ hits: number; ttl: number }>(sql`
      insert into ${rateLimitWindows} (key, window_start, hits) values (${key}, now(), 1)
      on conflict (key) do update set
        hits = case when ${ended} then 1 else ${rateLimitWindows.hits} + 1 end,
        window_start = case when ${ended} then now() else ${rateLimitWindows.windowStart} end
      returning hits, greatest(0, ceil(extract(epoch from (window_start + ${window} - now())) * 1000))::int as ttl`);
    return { current: rows[0]!.hits, ttl: rows[0]!.ttl };
  }

  /** Drops windows that started a day ago (run on a timer by one console at a time). */
  async purge(now = new Date()): Promise<void> {
    await this.db.delete(rateLimitWindows).where(lt(rateLimitWindows.windowStart, new Date(now.getTime() - KEEP_ENDED_MS)));
  }
}
