import { describe, expect, it } from 'vitest';
import { withoutTokens } from './log-serializers.js';

describe('withoutTokens', () => {
  it('leaves out every token value and keeps the rest', () => {
    expect(withoutTokens('/api/download/1?token=abc-_DEF')).toBe('/api/download/1?token=[redacted]');
    expect(withoutTokens('/api/x?a=1&token=s3cret&b=2')).toBe('/api/x?a=1&token=[redacted]&b=2');
    expect(withoutTokens('/api/devices?search=token')).toBe('/api/devices?search=token');
  });
});
