import { describe, expect, it } from 'vitest';
import { lazyPage, preloadLandingPage } from './lazy-page';

const Page = () => null;

describe('preloadLandingPage', () => {
  it("loads the code of the page at a path, ranked as the router ranks routes, once, and nothing for other paths", async () => {
    const loads: string[] = [];
    const page = (name: string, landsAt?: string) =>
      lazyPage(async () => {
        loads.push(name);
        return { [name]: Page } as Record<string, typeof Page>;
      }, name, landsAt);
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
    lazyPage((): Promise<{ GonePage: typeof Page }> => Promise.reject(new Error('chunk gone')), 'GonePage', '/gone');
    expect(() => preloadLandingPage('/gone')).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 10));
  });
});
