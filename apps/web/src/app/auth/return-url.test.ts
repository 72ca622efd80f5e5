import { describe, expect, it } from 'vitest';
import { currentAppUrl, safeReturnUrl } from './return-url';

describe('currentAppUrl', () => {
  it('keeps path, query and hash', () => {
    expect(currentAppUrl({ pathname: '/devices/search', search: '?tab=online', hash: '#top' })).toBe(
      '/devices/search?tab=online#top',
    );
  });
});

describe('safeReturnUrl', () => {
  it('accepts in-app paths', () => {
    expect(safeReturnUrl('/terms-service#security')).toBe('/terms-service#security');
    expect(safeReturnUrl('/devices/search?search=pump')).toBe('/devices/search?search=pump');
  });

  it('rejects other sites and non-strings', () => {
    expect(safeReturnUrl('https://evil.example/')).toBe('/');
    expect(safeReturnUrl('//evil.example/')).toBe('/');
    expect(safeReturnUrl('/\\evil.example/')).toBe('/');
    expect(safeReturnUrl(undefined)).toBe('/');
    expect(safeReturnUrl({ url: '/x' })).toBe('/');
  });

  it('never returns to the callback route', () => {
    expect(safeReturnUrl('/auth/callback')).toBe('/');
    expect(safeReturnUrl('/auth/callback?code=1&state=2')).toBe('/');
  });
});
