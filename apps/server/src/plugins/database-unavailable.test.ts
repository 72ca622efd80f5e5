import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../testing/test-console.js';
import { isDatabaseUnavailable } from './database-unavailable.js';
import { registerErrorHandling } from './errors.js';

/**
 * Issue 67: a request that meets a database that is away (a restart, a failover) is answered 503
 * with words a person understands and a Retry-After, not the 500 of a bug. The errors are the real
 * driver's, from a pool pointed at a port nothing listens on.
 */
describe('a database that cannot be reached', () => {
  const pools: pg.Pool[] = [];
  afterAll(async () => Promise.all(pools.map((p) => p.end())));

  const pool = async () => {
    const p = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/postgres`, connectionTimeoutMillis: 2000 });
    pools.push(p);
    return p;
  };

  it('is told from other errors, wrapped or not', async () => {
    const err = await (await pool()).query('select 1').catch((e: unknown) => e);
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect(isDatabaseUnavailable(new Error('Failed query', { cause: err }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
  });

  it('is answered 503 with a message and a Retry-After', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    const p = await pool();
    app.get('/thing', async () => (await p.query('select 1')).rows);
    const res = await app.inject({ method: 'GET', url: '/thing' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({ code: 'UNAVAILABLE', message: 'The database is not reachable right now: try again in a moment.' });
    await app.close();
  });
});
