// The base styles; each component's own come with it (vite-plugins/mantine-css-per-component.ts).
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import '../a11y/a11y.css';
import { MantineProvider, type MantineColorSchemeManager } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { theme } from './theme';

// The toasts' code (and their transitions) is loaded with the first toast, not with every page:
// a toast shown meanwhile waits in the notifications store, and appears once the outlet is there.
const ToastOutlet = lazy(async () => ({ default: (await import('../toasts/ToastOutlet')).ToastOutlet }));

function LazyToastOutlet() {
  const { notifications, queue } = useNotifications();
  // Once there, it stays: a toast going away still plays its exit.
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <ToastOutlet />
    </Suspense>
  ) : null;
}

/**
 * The console has one colour scheme, light, and remembers no choice of one. Mantine's default manager
 * reads a choice from localStorage as the console first renders, and a page's first use of
 * localStorage blocks until the browser has read it from disk: tens of milliseconds on the first
 * load's path, for nothing (issue 68).
 */
const lightOnly: MantineColorSchemeManager = {
  get: () => 'light',
  set: () => undefined,
  subscribe: () => undefined,
  unsubscribe: () => undefined,
  clear: () => undefined,
};

/** Mantine theme, global styles and the toast outlet. */
export function MantineRoot({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" colorSchemeManager={lightOnly}>
      <LazyToastOutlet />
      {children}
    </MantineProvider>
  );
}
