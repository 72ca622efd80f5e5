import { Center, Loader } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ComponentType } from 'react';
import { matchRoutes } from '../../router/router';
import type { ApiClient } from '../api/api-client';
import { missingRoles } from '../guards/route-access';

/** In place of a page while its code loads: light, and where the page will be. */
export function PageLoader() {
  return (
    <Center py="xl">
      <Loader size="sm" aria-label="Loading the page" />
    </Center>
  );
}

/** What a landing page's first questions are asked with, before the page is rendered. */
export interface LandingData {
  queryClient: QueryClient;
  api: ApiClient;
  /** The page's path parameters (`:id`), and its query string. */
  params: Record<string, string | undefined>;
  search: URLSearchParams;
}

/** A page people often open first: where it is, and what it needs before it can show anything. */
export interface Landing {
  path: string;
  /**
   * The realm roles the page requires (as its route does): its question is asked ahead only for
   * someone who holds them. Anyone else is shown that access is denied, not an alert of a refusal.
   */
  roles?: readonly string[];
  /** Asks the page's first question ahead (prefetching the query the page then finds answered). */
  prefetch?: (data: LandingData) => unknown;
}

const landings: (Landing & { preload: () => Promise<unknown> })[] = [];

// Ranked as the router ranks them: /devices/search before /devices/:id.
const landingAt = (pathname: string) => matchRoutes(landings, pathname)?.[0];

/** Where the pages registered as landings are: the console server preloads the same (LANDING_PAGES). */
export const landingPaths = (): string[] => landings.map((landing) => landing.path);

/**
 * Starts loading the code of the page at `pathname`, when it is one people often open first: the
 * bootstrap calls this while the sign-in is still being checked, so the page's chunk is not a
 * further round trip after it (issue 68).
 */
export function preloadLandingPage(pathname: string): void {
  // A page that cannot be loaded now is reported when it is shown, by its error page.
  landingAt(pathname)?.route.preload().catch(() => undefined);
}

/**
 * Asks the first question of the page at `location` as the console starts, signed in, instead of
 * once the page has rendered (a failure is the page's to show, as ever).
 */
export function prefetchLandingData(
  location: Pick<Location, 'pathname' | 'search'>,
  data: Pick<LandingData, 'queryClient' | 'api'> & { roles: readonly string[] },
): void {
  const landing = landingAt(location.pathname);
  if (!landing?.route.prefetch || missingRoles(landing.route.roles ?? [], data.roles).length > 0) return;
  landing.route.prefetch({ queryClient: data.queryClient, api: data.api, params: landing.params, search: new URLSearchParams(location.search) });
}

/**
 * A page whose code is loaded the first time it is shown (its own chunk), with PageLoader meanwhile.
 * A load that fails (the console was updated and the old chunk is gone, or the network dropped)
 * throws to the route's error page, which says the page failed to load. `landsAt`: where a page
 * people often open first is, whose code preloadLandingPage fetches early (and prefetchLandingData
 * asks its first question).
 */
export function lazyPage<K extends string, P extends object>(
  load: () => Promise<{ [k in NoInfer<K>]: ComponentType<P> }>,
  name: K,
  landsAt?: Landing,
): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const loadOnce = () =>
    (loading ??= load().then((module) => {
      loaded = module[name];
      return loaded;
    }));
  const Lazy = lazy(async () => ({ default: await loadOnce() })) as unknown as ComponentType<P>;
  if (landsAt) landings.push({ ...landsAt, preload: loadOnce });
  function LazyPage(props: P) {
    // Code loaded already (preloaded, or shown before): rendered at once, without a fallback to commit
    // and then replace. Chosen once per mount, so the page is never swapped for itself and remounted.
    const [Page] = useState(() => loaded ?? Lazy);
    return (
      <Suspense fallback={<PageLoader />}>
        <Page {...props} />
      </Suspense>
    );
  }
  LazyPage.displayName = `Lazy(${name})`;
  return LazyPage;
}
