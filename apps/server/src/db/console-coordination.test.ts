import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error.js';
import { PeriodicTask } from '../lib/periodic-task.js';
import { createTestDatabase } from '../testing/test-console.js';
import { waitFor } from '../modules/broker/broker.test-support.js';
import { PostgresNotices } from './change-notices.js';
import { LocalLocks, PostgresLocks, type ConsoleLocks } from './console-locks.js';

/** A promise and the function that settles it: work that holds a lock until the test lets go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** What two consoles do with one lock, whichever kind: one holder at a time, a free round skipped while held. */
function lockBehaviour(make: () => { one: ConsoleLocks; two: ConsoleLocks }) {
  it('lets one holder at a time have a name; a waiting one goes next, a round where it is held is skipped', async () => {
    const { one, two } = make();
    const held = gate();
    const order: string[] = [];
    const first = one.withLock('device:1', async () => {
      order.push('one in');
      await held.opened;
      order.push('one out');
    });
    await waitFor(() => order.length === 1, 5000, 'the first holder');
    const second = two.withLock('device:1', async () => void order.push('two in'));
    // Another name is free meanwhile.
    expect(await two.ifFree('device:2', async () => void order.push('other name'))).toBe(true);
    expect(await two.ifFree('device:1', async () => void order.push('skipped round'))).toBe(false);
    await new Promise((r) => setTimeout(r, 100));
    expect(order).toEqual(['one in', 'other name']);
    held.open();
    await Promise.all([first, second]);
    expect(order).toEqual(['one in', 'other name', 'one out', 'two in']);
    // A failing holder lets go all the same.
    await expect(one.withLock('device:1', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await two.ifFree('device:1', async () => {})).toBe(true);
  });
}

describe('local locks (PGlite: one console)', () => {
  const locks = new LocalLocks();
  lockBehaviour(() => ({ one: locks, two: locks }));

  it('runs a periodic task one round at a time', async () => {
    let rounds = 0;
    const held = gate();
    const task = new PeriodicTask({ name: 'test', everyMs: 60_000, locks, log: { warn() {} }, work: async () => void (rounds++, await held.opened) });
    const a = task.runOnce();
    const b = task.runOnce();
    held.open();
    await Promise.all([a, b]);
    expect(rounds).toBe(1);
    await task.stop();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL locks and notices between consoles', () => {
  let database: { url: string; drop(): Promise<void> };
  const pools: pg.Pool[] = [];
  const pool = () => {
    const p = new pg.Pool({ connectionString: database.url, max: 4 });
    p.on('error', () => {});
    pools.push(p);
    return p;
  };
  const terminate = async (where: string) => {
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const { rowCount } = await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and ${where}`);
    await admin.end();
    return rowCount;
  };

  beforeAll(async () => {
    database = (await createTestDatabase('fleetlink_coordination'))!;
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end().catch(() => {})));
    await database?.drop();
  });

  lockBehaviour(() => ({ one: new PostgresLocks(pool()), two: new PostgresLocks(pool()) }));

  it('answers 503 past the wait, and frees the lock of a console whose connection died', async () => {
    const one = new PostgresLocks(pool());
    const two = new PostgresLocks(pool());
    const held = gate();
    const holding = one.withLock('device:9', () => held.opened).catch((err: Error) => err);
    await waitFor(async () => !(await two.ifFree('device:9', async () => {})), 5000, 'the lock held');
    const refused = await two.withLock('device:9', async () => {}, 300).catch((err: AppError) => err);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ statusCode: 503, message: 'Another request on the same device is still running; try again in a moment.' });
    // The holder is killed (its connection ends as with kill -9): PostgreSQL lets go of its lock.
    expect(await terminate(`pid in (select pid from pg_locks where locktype = 'advisory' and granted)`)).toBe(1);
    expect(await two.ifFree('device:9', async () => {})).toBe(true);
    held.open();
    await holding;
  });

  it("tells the other consoles of a change, not the one that made it; after losing its connection a console hears every topic once", async () => {
    const log = { warn() {} };
    const [a, b] = [await PostgresNotices.open(database.url, pool(), log), await PostgresNotices.open(database.url, pool(), log)];
    const heard = { a: 0, b: 0 };
    a.on('servers', () => heard.a++);
    b.on('servers', () => heard.b++);
    await a.publish('servers');
    await waitFor(() => heard.b === 1, 5000, 'B to hear A');
    await new Promise((r) => setTimeout(r, 200));
    expect(heard).toEqual({ a: 0, b: 1 });
    // Both listening connections cut: each listens again and reads everything again once.
    expect(await terminate(`query = 'listen fleetlink_changes'`)).toBe(2);
    await waitFor(() => heard.a === 1 && heard.b === 2, 10_000, 'both listening again');
    await b.publish('servers');
    await waitFor(() => heard.a === 2, 5000, 'A to hear B after it listened again');
    await Promise.all([a.close(), b.close()]);
  });
});
