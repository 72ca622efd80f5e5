import { describe, expect, it } from 'vitest';
import { linkTokenQuerySchema } from './link-token.js';

describe('a one-time link’s token', () => {
  it('says what is wrong with a link that lost its token, in words a person understands', () => {
    const message = (query: unknown) => linkTokenQuerySchema.safeParse(query).error?.issues[0].message;
    expect(message({})).toBe('This link has no token: use the whole link the console handed out.');
    expect(message({ token: '' })).toBe('This link has no token: use the whole link the console handed out.');
    expect(message({ token: 'x'.repeat(129) })).toBe('This link’s token is not valid.');
    expect(message({ token: 'x'.repeat(128) })).toBeUndefined();
  });
});
