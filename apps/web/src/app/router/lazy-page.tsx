import { Center, Loader } from '@mantine/core';
import { lazy, Suspense, useState, type ComponentType } from 'react';
import { matchRoutes } from 'react-router';

/** In place of a page while its code loads: light, and where the page will be. */
export function PageLoader() {
  return (
    <Center py="xl">
      <Loader size="sm" aria-label="Loading the page" />
    </Center>
  );
}

/** Pages people often open first, by the path they are at, with how to load their code. */
const landings: { path: string; preload: () => Promise<unknown> }[] = [];

/**
 * Starts loading the code of the page at `pathname`, when it is one people often open first: the
 * bootstrap calls this while the sign-in is still being checked, so the page's chunk is not a
 * further round trip after it (issue 68).
 */
export function preloadLandingPage(pathname: string): void {
  // Ranked as the router ranks them: /devices/search before /devices/:id.
  const landing = matchRoutes(landings, pathname)?.[0]?.route;
  // A page that cannot be loaded now is reported when it is shown, by its error page.
  landing?.preload().catch(() => undefined);
}

/**
 * A page whose code is loaded the first time it is shown (its own chunk), with PageLoader meanwhile.
 * A load that fails (the console was updated and the old chunk is gone, or the network dropped)
 * throws to the route's error page, which says the page failed to load. `landsAt`: the path of a
 * page people often open first, whose code preloadLandingPage may fetch early.
 */
export function lazyPage<K extends string, P extends object>(
  load: () => Promise<{ [k in NoInfer<K>]: ComponentType<P> }>,
  name: K,
  landsAt?: string,
): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const loadOnce = () =>
    (loading ??= load().then((module) => {
      loaded = module[name];
      return loaded;
    }));
  const Lazy = lazy(async () => ({ default: await loadOnce() })) as unknown as ComponentType<P>;
  if (landsAt) landings.push({ path: landsAt, preload: loadOnce });
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
