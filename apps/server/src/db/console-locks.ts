import type pg from 'pg';
import { ErrorCode } from '@fleetlink/contract';
import { AppError } from '../lib/app-error.js';

/**
 * Locks that hold across every console of one database (DESIGN §5b): what must run once at a time
 * (a periodic task) or one after another (a device's enrollments and key resets) takes a PostgreSQL
 * advisory lock, never an in-process queue, which only one console would see. A console that dies
 * loses its connection, and PostgreSQL lets go of its locks with it.
 */
export interface ConsoleLocks {
  /** Runs `work` holding the lock `name`, waiting for a console that holds it (a 503 past `waitMs`). */
  withLock<T>(name: string, work: () => Promise<T>, waitMs?: number): Promise<T>;
  /** Runs `work` holding the lock `name` when no console holds it; answers whether it ran. */
  ifFree(name: string, work: () => Promise<void>): Promise<boolean>;
}

const DEFAULT_WAIT_MS = 30_000;
const BUSY = 'Another request on the same device is still running; try again in a moment.';

/**
 * PostgreSQL: session advisory locks on a small pool of their own. The work runs on the main pool
 * while a lock is held here, so holders never wait on the connections they hold (10 enrollments
 * holding all of one pool, each waiting for one more, would deadlock).
 */
export class PostgresLocks implements ConsoleLocks {
  constructor(private readonly pool: pg.Pool) {}

  async withLock<T>(name: string, work: () => Promise<T>, waitMs = DEFAULT_WAIT_MS): Promise<T> {
    // Holders past the pool's size wait their turn for a connection (up to its connection timeout).
    const client = await this.pool.connect().catch((err: Error) => {
      throw new AppError(503, ErrorCode.Unavailable, `The console is too busy to take this now; try again in a moment (${err.message}).`);
    });
    try {
      await client.query(`set lock_timeout = ${Math.max(1, Math.round(waitMs))}`);
      await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [name]);
    } catch (err) {
      client.release();
      if ((err as { code?: string }).code === '55P03') throw new AppError(503, ErrorCode.Unavailable, BUSY);
      throw err;
    }
    return this.holding(client, name, work);
  }

  async ifFree(name: string, work: () => Promise<void>): Promise<boolean> {
    const client = await this.pool.connect();
    let got = false;
    try {
      const { rows } = await client.query<{ got: boolean }>('select pg_try_advisory_lock(hashtextextended($1, 0)) as got', [name]);
      got = rows[0]!.got;
    } finally {
      if (!got) client.release();
    }
    if (!got) return false;
    await this.holding(client, name, work);
    return true;
  }

  private async holding<T>(client: pg.PoolClient, name: string, work: () => Promise<T>): Promise<T> {
    // The connection may be cut while it only holds the lock (the database restarts): its error must
    // not end the process; the unlock below then fails, and the connection is dropped.
    const ignore = () => {};
    client.on('error', ignore);
    try {
      return await work();
    } finally {
      // A connection that cannot say unlock is dropped: closing it is what lets go of the lock then.
      const unlocked = await client.query('select pg_advisory_unlock(hashtextextended($1, 0))', [name]).then(
        () => undefined,
        (err: Error) => err,
      );
      client.off('error', ignore);
      client.release(unlocked);
    }
  }
}

/** PGlite serves one console (one process): its locks are this process's own, one holder per name. */
export class LocalLocks implements ConsoleLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async withLock<T>(name: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(name) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const tail = before.then(() => mine);
    this.tails.set(name, tail);
    await before;
    try {
      return await work();
    } finally {
      done();
      if (this.tails.get(name) === tail) this.tails.delete(name);
    }
  }

  async ifFree(name: string, work: () => Promise<void>): Promise<boolean> {
    if (this.tails.has(name)) return false;
    await this.withLock(name, work);
    return true;
  }
}
