import { describe, expect, it } from 'vitest';
import { landingPageAt, matchPath } from './web-paths.js';

describe("the router's paths", () => {
  it('are matched segment by segment, a trailing /* taking anything below', () => {
    expect(matchPath('/devices/:id/*', '/devices/abc')).toEqual({ id: 'abc' });
    expect(matchPath('/devices/:id/*', '/devices/abc/storage')).toEqual({ id: 'abc' });
    expect(matchPath('/devices/:id/*', '/devices')).toBeNull();
    expect(matchPath('/devices/:id/*', '/devices/')).toBeNull();
    expect(matchPath('/devices', '/devices/')).toEqual({});
    expect(matchPath('/devices/search', '/devices/search/more')).toBeNull();
    expect(matchPath('/', '/devices')).toBeNull();
    expect(matchPath('/', '/')).toEqual({});
  });

  it('give their parameters as text, and match no malformed escape', () => {
    expect(matchPath('/devices/:id/*', '/devices/a%20b')).toEqual({ id: 'a b' });
    expect(matchPath('/devices/:id/*', '/devices/%E0%A4%A')).toBeNull();
  });

  it("find the landing page, the exact one first: /devices/new is not a device's page", () => {
    expect(landingPageAt('/devices/new')?.page.path).toBe('/devices/new');
    expect(landingPageAt('/devices/search')?.page.path).toBe('/devices/search');
    expect(landingPageAt('/devices/8c1f/storage')).toEqual({ page: expect.objectContaining({ path: '/devices/:id/*' }), params: { id: '8c1f' } });
    expect(landingPageAt('/privacy-policy')).toBeUndefined();
  });
});
