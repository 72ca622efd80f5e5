import { describe, expect, it } from 'vitest';
import { createPath, parsePath } from './history';
import { matchPath, matchRoutes, type RouteObject } from './match';

/** The console's routes' shapes: pages under a layout without a path, descendant route trees under `x/*`. */
const routes: RouteObject[] = [
  {
    children: [
      { path: '/auth/callback' },
      {
        children: [
          { index: true, handle: 'home' },
          { path: 'devices/*', handle: 'devices' },
          { path: 'operator', handle: 'operator' },
          { path: 'operator/audit', handle: 'audit' },
          { path: '*', handle: 'not found' },
        ],
      },
    ],
  },
];
const devices: RouteObject[] = [
  { path: 'search', handle: 'search' },
  { path: ':id', handle: 'layout', children: [{ index: true, handle: 'summary' }, { path: 'tunnels', handle: 'tunnels' }] },
];

const leaf = (found: ReturnType<typeof matchRoutes>) => found?.[found.length - 1];

describe('which route a URL shows (as React Router ranks them)', () => {
  it('shows the index route at the root, and a static path before the catch-all', () => {
    expect(leaf(matchRoutes(routes, '/'))?.route.handle).toBe('home');
    expect(leaf(matchRoutes(routes, '/operator'))?.route.handle).toBe('operator');
    expect(leaf(matchRoutes(routes, '/operator/audit/'))?.route.handle).toBe('audit');
    expect(leaf(matchRoutes(routes, '/nowhere/at/all'))?.route.handle).toBe('not found');
  });

  it('gives a `x/*` route the rest of the path, and its base for the routes below it', () => {
    const found = leaf(matchRoutes(routes, '/devices/abc/tunnels'));
    expect(found?.route.handle).toBe('devices');
    expect(found?.params['*']).toBe('abc/tunnels');
    expect(found?.pathnameBase).toBe('/devices');
    expect(leaf(matchRoutes(routes, '/Devices'))?.route.handle).toBe('devices');
  });

  it('ranks a static segment before a parameter, whatever their order', () => {
    expect(leaf(matchRoutes(devices, '/search'))?.route.handle).toBe('search');
    const summary = matchRoutes(devices, '/0b5f2e9a');
    expect(summary?.map((m) => m.route.handle)).toEqual(['layout', 'summary']);
    expect(summary?.[1]?.params).toEqual({ id: '0b5f2e9a' });
    expect(leaf(matchRoutes(devices, '/0b5f2e9a/tunnels'))?.route.handle).toBe('tunnels');
    expect(matchRoutes(devices, '/0b5f2e9a/nothing')).toBeNull();
  });

  it('decodes parameters, an encoded slash included', () => {
    expect(leaf(matchRoutes(devices, '/a%20b%2Fc'))?.params.id).toBe('a b/c');
    expect(matchPath({ path: '/files/*' }, '/files/x/y')?.params['*']).toBe('x/y');
    expect(matchPath({ path: '/files', end: false }, '/filesystem')).toBeNull();
  });
});

describe('paths', () => {
  it('are split into and built from their parts', () => {
    expect(parsePath('/devices/search?q=kiosk#top')).toEqual({ pathname: '/devices/search', search: '?q=kiosk', hash: '#top' });
    expect(parsePath('?q=1')).toEqual({ search: '?q=1' });
    expect(createPath({ pathname: '/a', search: 'q=1', hash: '' })).toBe('/a?q=1');
    expect(createPath({ pathname: '/a', search: '?', hash: '#' })).toBe('/a');
  });
});
