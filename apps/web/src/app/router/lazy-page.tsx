import { Center, Loader } from '@mantine/core';
import { lazy, Suspense, type ComponentType } from 'react';

/** In place of a page while its code loads: light, and where the page will be. */
export function PageLoader() {
  return (
    <Center py="xl">
      <Loader size="sm" aria-label="Loading the page" />
    </Center>
  );
}

/**
 * A page whose code is loaded the first time it is shown (its own chunk), with PageLoader meanwhile.
 * A load that fails (the console was updated and the old chunk is gone, or the network dropped)
 * throws to the route's error page, which says the page failed to load.
 */
export function lazyPage<K extends string, P extends object>(load: () => Promise<{ [k in NoInfer<K>]: ComponentType<P> }>, name: K): ComponentType<P> {
  const Lazy = lazy(async () => ({ default: (await load())[name] })) as unknown as ComponentType<P>;
  function LazyPage(props: P) {
    return (
      <Suspense fallback={<PageLoader />}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  LazyPage.displayName = `Lazy(${name})`;
  return LazyPage;
}
