import { describe, expect, it } from 'vitest';
import type { QueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../api/api-client';
import { lazyPage, prefetchLandingData, preloadLandingPage, type LandingData } from './lazy-page';

const Page = () => null;

describe('preloadLandingPage', () => {
  it("loads the code of the page at a path, ranked as the router ranks routes, once, and nothing for other paths", async () => {
    const loads: string[] = [];
    const page = (name: string, landsAt?: string) =>
      lazyPage(async () => {
        loads.push(name);
        return { [name]: Page } as Record<string, typeof Page>;
      }, name, landsAt ? { path: landsAt } : undefined);
    page('DeviceLayout', '/devices/:id/*');
    page('DeviceSearchPage', '/devices/search');
    page('ContactPage');

    preloadLandingPage('/devices/search');
    preloadLandingPage('/devices/search');
    await Promise.resolve();
    expect(loads).toEqual(['DeviceSearchPage']);
    preloadLandingPage('/devices/8c1f/file');
    preloadLandingPage('/contact');
    await Promise.resolve();
    expect(loads).toEqual(['DeviceSearchPage', 'DeviceLayout']);
  });

  it('leaves a page whose code cannot be loaded to its error page, with no unhandled rejection', async () => {
    lazyPage((): Promise<{ GonePage: typeof Page }> => Promise.reject(new Error('chunk gone')), 'GonePage', { path: '/gone' });
    expect(() => preloadLandingPage('/gone')).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 10));
  });

  it("asks the first question of the page at a location, with its path parameters and query string, and none for a page without one or for someone without its roles", () => {
    const asked: string[] = [];
    const ask = (data: LandingData) => asked.push(`${data.params.id ?? '-'} ${data.search.get('tab') ?? '-'}`);
    const load = async () => ({ Page });
    lazyPage(load, 'Page', { path: '/things/:id/*', prefetch: ask });
    lazyPage(load, 'Page', { path: '/things/new' });
    lazyPage(load, 'Page', { path: '/things/search', roles: ['USER'], prefetch: ask });
    const data = { queryClient: {} as QueryClient, api: {} as ApiClient, roles: ['USER'] };

    prefetchLandingData({ pathname: '/things/8c1f/file', search: '' }, data);
    prefetchLandingData({ pathname: '/things/search', search: '?tab=online' }, data);
    prefetchLandingData({ pathname: '/things/new', search: '' }, data);
    prefetchLandingData({ pathname: '/elsewhere', search: '' }, data);
    // Someone without the page's roles is shown that access is denied: nothing is asked.
    prefetchLandingData({ pathname: '/things/search', search: '?tab=offline' }, { ...data, roles: [] });
    expect(asked).toEqual(['8c1f -', '- online']);
  });
});
