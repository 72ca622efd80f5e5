import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { describe, expect, it } from 'vitest';
import { errorForLog, withoutTokens } from './log-serializers.js';

describe('withoutTokens', () => {
  it('leaves out every token value and keeps the rest', () => {
    expect(withoutTokens('/api/download/1?token=abc-_DEF')).toBe('/api/download/1?token=[redacted]');
    expect(withoutTokens('/api/x?a=1&token=s3cret&b=2')).toBe('/api/x?a=1&token=[redacted]&b=2');
    expect(withoutTokens('/api/devices?search=token')).toBe('/api/devices?search=token');
  });
});

describe('errorForLog', () => {
  it('keeps a failed query and the database’s reason, and leaves out the values it was given', async () => {
    const client = new PGlite();
    const db = drizzle(client);
    await db.execute(sql`create table servers (password text)`);
    const err = await db.execute(sql`insert into servers (password) values (${'broker-password-\u0000-4c1f'})`).then(
      () => undefined,
      (e: Error) => e,
    );
    await client.close();
    // Unserialized, both drizzle's message and PGlite's own fields carry the password.
    expect(`${err?.message} ${JSON.stringify((err?.cause as { params?: unknown }).params)}`).toContain('broker-password-');
    const logged = JSON.stringify(errorForLog(err!));
    expect(logged).not.toContain('broker-password-');
    expect(logged).toContain('Failed query: insert into servers (password) values ($1)');
    expect(logged).toContain('invalid byte sequence for encoding');
    expect(errorForLog(new Error('plain'))).toMatchObject({ type: 'Error', message: 'plain' });
  });
});
