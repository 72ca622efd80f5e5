import { LANDING_PAGES } from '@fleetlink/contract/web-paths';
import { describe, expect, it } from 'vitest';
import { landingPaths } from './lazy-page';

describe('the landing pages', () => {
  it("are the same in the console's routes and in the list the console server preloads by", async () => {
    // The routes register their landings as they load.
    await import('./routes');
    expect([...landingPaths()].sort()).toEqual(LANDING_PAGES.map((page) => page.path).sort());
  });
});
