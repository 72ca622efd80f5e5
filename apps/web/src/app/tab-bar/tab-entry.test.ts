import { describe, expect, it } from 'vitest';
import { isTabActive } from './tab-entry';

describe('isTabActive', () => {
  it('matches an exact tab only on its own path', () => {
    const summary = { routerLink: '/devices/abc', exact: true };
    expect(isTabActive(summary, '/devices/abc')).toBe(true);
    expect(isTabActive(summary, '/devices/abc/')).toBe(true);
    expect(isTabActive(summary, '/devices/abc/tunnels')).toBe(false);
  });

  it('matches a non-exact tab on the pages below it', () => {
    const tunnels = { routerLink: '/devices/abc/tunnels' };
    expect(isTabActive(tunnels, '/devices/abc/tunnels')).toBe(true);
    expect(isTabActive(tunnels, '/devices/abc/tunnels/new')).toBe(true);
    expect(isTabActive(tunnels, '/devices/abc/tunnelsx')).toBe(false);
    expect(isTabActive(tunnels, '/devices/abc')).toBe(false);
  });
});
