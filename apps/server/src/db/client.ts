import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.js';
import { ConfigError } from '../env.js';
import { LocalNotices, PostgresNotices, type ChangeNotices } from './change-notices.js';
import { LocalLocks, PostgresLocks, type ConsoleLocks } from './console-locks.js';

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Both drivers expose the same query builder; repositories only ever see this type. */
export type Db = ReturnType<typeof drizzlePglite<typeof schema>>;
/** Either the database or a transaction on it: what a repository write that may join a transaction takes. */
export type DbExecutor = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  /**
   * The same database through a pool of its own, for device traffic (states, heartbeats, reports):
   * a fleet reconnecting at once keeps every connection it has busy, and the API's requests must
   * not wait behind it for one. On PGlite (one connection in the process) it is `db`.
   */
  traffic: Db;
  kind: 'pglite' | 'postgres';
  /** Locks every console of this database respects. */
  locks: ConsoleLocks;
  /** Changes other consoles of this database must hear of. */
  notices: ChangeNotices;
  /** PostgreSQL's connection pools, the API's and device traffic's, for their figures (the console's metrics); PGlite has none. */
  pools?: Record<'api' | 'traffic', Pick<pg.Pool, 'totalCount' | 'idleCount' | 'waitingCount'>>;
  close(): Promise<void>;
}

type NoticeLog = { warn(o: object, m: string): void };

/** Opens PostgreSQL when a URL is given, otherwise PGlite in DATA_DIR/pg; applies migrations. */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string; log?: NoticeLog }): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.log ?? { warn: () => {} });
  return openPglite(path.join(opts.dataDir, 'pg'));
}

async function openPglite(dir: string): Promise<Database> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let client: PGlite;
  try {
    client = await PGlite.create({ dataDir: dir, extensions: { pg_trgm } });
  } catch (err) {
    throw new ConfigError(`Cannot open the embedded database in ${dir}: ${(err as Error).message}`);
  }
  const db = drizzlePglite({ client, schema });
  // The node-postgres migrator hangs on PGlite's adapter (DESIGN §2), so PGlite has its own.
  await migratePglite(db, { migrationsFolder });
  return { db, traffic: db, kind: 'pglite', locks: new LocalLocks(), notices: new LocalNotices(), close: () => client.close() };
}

async function openPostgres(url: string, log: NoticeLog): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
  // An idle client's network error must not crash the process; the pool replaces the client.
  pool.on('error', () => {});
  try {
    const probe = await pool.connect();
    probe.release();
  } catch (err) {
    await pool.end().catch(() => {});
    throw new ConfigError(`Cannot connect to DATABASE_URL (${redact(url)}): ${(err as Error).message}`);
  }
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  // Waiting for one of its connections is waiting for a lock: as long as a lock may be waited for.
  const lockPool = new pg.Pool({ connectionString: url, max: LOCK_CONNECTIONS, connectionTimeoutMillis: 30_000 });
  lockPool.on('error', () => {});
  const locks = new PostgresLocks(lockPool);
  // Device traffic waits its turn here, apart from the API's pool: at most the hub's handlers and
  // the batch writers at once (see TRAFFIC_CONNECTIONS).
  const trafficPool = new pg.Pool({ connectionString: url, max: TRAFFIC_CONNECTIONS, connectionTimeoutMillis: 5000 });
  trafficPool.on('error', () => {});
  const traffic = drizzlePg({ client: trafficPool, schema }) as unknown as Db;
  const closePools = () => Promise.all([pool.end(), lockPool.end(), trafficPool.end()]);
  try {
    // Consoles started together on a new database: one migrates, the others wait and find it done.
    await locks.withLock('migrations', () => migratePg(db as never, { migrationsFolder }), 10 * 60_000);
    const notices = await PostgresNotices.open(url, pool, log);
    return {
      db,
      traffic,
      kind: 'postgres',
      locks,
      notices,
      pools: { api: pool, traffic: trafficPool },
      close: async () => {
        await notices.close();
        await closePools();
      },
    };
  } catch (err) {
    await closePools().catch(() => {});
    throw err;
  }
}

/**
 * Connections for device traffic: the message hub's six handlers at once, the batches of states, of
 * ping claims and of heartbeats, and one for the silence sweep.
 */
const TRAFFIC_CONNECTIONS = 10;

/** Connections that only hold advisory locks (periodic tasks, one device's enrollment at a time). */
const LOCK_CONNECTIONS = 4;

const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
