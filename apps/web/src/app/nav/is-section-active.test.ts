import { describe, expect, it } from 'vitest';
import { isSectionActive } from './is-section-active';

describe('isSectionActive', () => {
  it('matches a section root and the pages below it', () => {
    expect(isSectionActive('/servers', ['/servers', '/agent'])).toBe(true);
    expect(isSectionActive('/agent/releases/new', ['/servers', '/agent'])).toBe(true);
  });

  it('does not match other pages that merely share a prefix', () => {
    expect(isSectionActive('/serversfoo', ['/servers'])).toBe(false);
    expect(isSectionActive('/', ['/devices'])).toBe(false);
  });
});
