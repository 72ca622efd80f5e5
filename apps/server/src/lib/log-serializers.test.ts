import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { describe, expect, it } from 'vitest';
import { redactUrl } from '@fleetlink/contract/log-redaction';
import { errorForLog } from './log-serializers.js';

describe('redactUrl', () => {
  it('leaves out every token value and keeps the rest', () => {
    expect(redactUrl('/api/download/1?token=abc-_DEF')).toBe('/api/download/1?token=[redacted]');
    expect(redactUrl('/api/x?a=1&token=s3cret&b=2')).toBe('/api/x?a=1&token=[redacted]&b=2');
    expect(redactUrl('/api/devices?search=token')).toBe('/api/devices?search=token');
  });

  it('leaves out codes, states, ID token hints, bearer tokens, keys and passwords (issue 58)', () => {
    expect(redactUrl('/auth/callback?code=Xy_9&state=abc&iss=http%3A%2F%2Flocalhost')).toBe('/auth/callback?code=[redacted]&state=[redacted]&iss=http%3A%2F%2Flocalhost');
    expect(redactUrl('/idp/session/end?id_token_hint=eyJhbGciOi.eyJzdWIi.sig&post_logout_redirect_uri=http%3A%2F%2Fx')).toBe(
      '/idp/session/end?id_token_hint=[redacted]&post_logout_redirect_uri=http%3A%2F%2Fx',
    );
    expect(redactUrl('/api/x?ACCESS_TOKEN=eyJ&refresh_token=r&key=k&password=p#frag')).toBe('/api/x?ACCESS_TOKEN=[redacted]&refresh_token=[redacted]&key=[redacted]&password=[redacted]');
    expect(redactUrl('/api/x?monkey=1&codes=2&statement=3')).toBe('/api/x?monkey=1&codes=2&statement=3');
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
