import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client.js';
import { createTestDatabase } from '../../testing/test-console.js';
import { SharedRateLimits } from './shared-rate-limits.js';

/**
 * Issue 60: a rate limit counts in the database, so two consoles (two connections here, on
 * PostgreSQL when TEST_DATABASE_URL is set) count into one window and a limit is not doubled.
 */
describe('rate limits shared by consoles', () => {
  let dir: string;
  let fresh: { url: string; drop(): Promise<void> } | undefined;
  const databases: Database[] = [];
  let a: SharedRateLimits;
  let b: SharedRateLimits;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'fleetlink-limits-'));
    fresh = await createTestDatabase('fleetlink_limits');
    databases.push(await openDatabase({ databaseUrl: fresh?.url, dataDir: dir }));
    // PGlite serves one process: its two "consoles" share it; PostgreSQL gets a second pool.
    if (fresh) databases.push(await openDatabase({ databaseUrl: fresh.url, dataDir: dir }));
    a = new SharedRateLimits(databases[0]!.db);
    b = new SharedRateLimits(databases.at(-1)!.db);
  });
  afterAll(async () => {
    for (const d of databases) await d.close();
    await fresh?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts one window across consoles, and starts a new one once it ended', async () => {
    const hits = [];
    for (const limits of [a, b, a, b]) hits.push(await limits.hit('enroll:10.0.0.1', 60_000));
    expect(hits.map((h) => h.current)).toEqual([1, 2, 3, 4]);
    for (const h of hits) expect(h.ttl).toBeGreaterThan(55_000);
    for (const h of hits) expect(h.ttl).toBeLessThanOrEqual(60_000);
    // Another key, another count.
    expect((await b.hit('enroll:10.0.0.2', 60_000)).current).toBe(1);
    // Five of the same at once, from both: each counted once.
    const together = await Promise.all([a, b, a, b, a].map((l) => l.hit('contact:user:x', 60_000)));
    expect(together.map((h) => h.current).sort()).toEqual([1, 2, 3, 4, 5]);

    const short = await a.hit('enroll:10.0.0.3', 200);
    expect(short.current).toBe(1);
    await new Promise((r) => setTimeout(r, 250));
    expect((await b.hit('enroll:10.0.0.3', 200)).current).toBe(1);
  });

  it('purges windows that started a day ago', async () => {
    await a.hit('enroll:old', 60_000);
    await databases[0]!.db.execute(sql`update rate_limit_windows set window_start = now() - interval '25 hours' where key = 'enroll:old'`);
    await b.purge();
    const left = await databases[0]!.db.execute<{ key: string }>(sql`select key from rate_limit_windows order by key`);
    expect(left.rows.map((r) => r.key)).not.toContain('enroll:old');
    expect(left.rows.map((r) => r.key)).toContain('enroll:10.0.0.1');
  });
});
