// Before anything parses with zod.
import './zod-without-eval';
import type { PublicConfig } from '@fleetlink/contract';
import type { UserManager } from 'oidc-client-ts';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import type { StartupSignin } from './auth/start-session';

export { preloadLandingPage } from './router/lazy-page';

/** What the bootstrap found out: the configuration and the sign-in, or why the configuration could not be loaded. */
export type ConsoleStart =
  | { config: PublicConfig; userManager: UserManager; startup: Exclude<StartupSignin, { status: 'signed-out' }> }
  | { configError: unknown };

/** Renders the console into #root (loaded by the bootstrap once the visitor is signed in, or to show why not). */
export function startConsole(start: ConsoleStart): void {
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  const root = createRoot(container);
  // As a transition, React renders the console in slices and lets the browser paint and take input
  // in between, instead of one long task while the bootstrap's "Starting Fleetlink…" stays on screen.
  startTransition(() =>
    root.render(
      <StrictMode>
        <App start={start} />
      </StrictMode>,
    ),
  );
}
