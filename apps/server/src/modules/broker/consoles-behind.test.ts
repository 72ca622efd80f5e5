import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresNotices } from '../../db/change-notices.js';
import { createTestDatabase } from '../../testing/test-console.js';
import { waitFor } from './broker.test-support.js';
import { ConsolesBehind } from './consoles-behind.js';

/**
 * Issue 70: the silence sweep, run by one console for all, waits while any console is behind with
 * device messages; two consoles tell each other over PostgreSQL's NOTIFY, as in production.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('consoles behind with device messages', () => {
  let database: { url: string; drop(): Promise<void> };
  const pools: pg.Pool[] = [];
  const closing: (() => Promise<void> | void)[] = [];
  beforeAll(async () => {
    database = (await createTestDatabase('fleetlink_behind'))!;
  });
  afterAll(async () => {
    for (const c of closing) await c();
    await Promise.all(pools.map((p) => p.end().catch(() => {})));
    await database?.drop();
  });

  it('counts another console as behind while it says so, and as caught up soon after it stops', async () => {
    const log = { warn() {} };
    const open = async () => {
      const pool = new pg.Pool({ connectionString: database.url, max: 2 });
      pool.on('error', () => {});
      pools.push(pool);
      const notices = await PostgresNotices.open(database.url, pool, log);
      closing.push(() => notices.close());
      return notices;
    };
    const state = { aBehind: false, bAhead: 0 };
    const a = new ConsolesBehind({ notices: await open(), own: () => state.aBehind, log }).start();
    const bNotices = await open();
    let lastHeard = 0;
    bNotices.on('behind', () => (lastHeard = Date.now()));
    const b = new ConsolesBehind({ notices: bNotices, own: () => false, log, now: () => Date.now() + state.bAhead }).start();
    closing.push(() => a.stop(), () => b.stop());
    expect([a.any(), b.any()]).toEqual([false, false]);

    state.aBehind = true;
    expect(a.any()).toBe(true);
    // A says so within its period (5 s); B, not behind itself, hears it.
    await waitFor(() => b.any(), 8000, 'B to hear that A is behind');

    // A caught up says nothing more: B counts it behind for 15 s after its last notice, not longer.
    state.aBehind = false;
    await new Promise((r) => setTimeout(r, 5500));
    state.bAhead = lastHeard + 14_000 - Date.now();
    expect(b.any()).toBe(true);
    state.bAhead = lastHeard + 15_500 - Date.now();
    expect(b.any()).toBe(false);
  }, 30_000);
});
