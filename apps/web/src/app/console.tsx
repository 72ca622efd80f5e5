// Before anything parses with zod.
import type { PublicConfig } from '@fleetlink/contract';
import type { OidcClient } from './auth/oidc/oidc-client';
import type { QueryClient } from '@tanstack/react-query';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { createConsoleApi } from './api/console-api';
import { createQueryClient } from './api/query-client';
import { readAuthDetails } from './auth/token-claims';
import type { StartupSignin } from './auth/start-session';
import type { FirstAnswer } from './startup/first-question';
import { prefetchLandingData } from './router/lazy-page';

export { preloadLandingPage } from './router/lazy-page';

/** What the bootstrap found out: the configuration and the sign-in, or why the configuration could not be loaded. */
export type ConsoleStart =
  | { config: PublicConfig; userManager: OidcClient; startup: Exclude<StartupSignin, { status: 'signed-out' }>; firstAnswer?: FirstAnswer }
  | { configError: unknown };

/**
 * Signed in: the first question of the page asked for is asked now, and answered while the console
 * renders (issue 68). (The client is the pages' twin, ApiProvider's: both read the token from the
 * user manager per request.)
 */
async function askAhead({ config, userManager, firstAnswer }: Extract<ConsoleStart, { config: PublicConfig }>, queryClient: QueryClient): Promise<void> {
  const user = await userManager.getUser();
  if (!user) return;
  const { roles } = readAuthDetails(user.access_token, config.oidc.clientId, config.roleMapping);
  // The bootstrap may have asked it already (first-question.ts): then its answer is the one used.
  prefetchLandingData(window.location, { queryClient, api: createConsoleApi(userManager, firstAnswer), roles });
}

/** Renders the console into #root (loaded by the bootstrap once the visitor is signed in, or to show why not). */
export function startConsole(start: ConsoleStart): void {
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  const queryClient = createQueryClient();
  if (!('configError' in start) && start.startup.status === 'ready') void askAhead(start, queryClient);
  const root = createRoot(container);
  // As a transition, React renders the console in slices and lets the browser paint and take input
  // in between, instead of one long task while the bootstrap's "Starting Fleetlink…" stays on screen.
  startTransition(() =>
    root.render(
      <StrictMode>
        <App start={start} queryClient={queryClient} />
      </StrictMode>,
    ),
  );
}
