// Before anything parses with zod.
import './zod-without-eval';
import type { PublicConfig } from '@fleetlink/contract';
import type { UserManager } from 'oidc-client-ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import type { StartupSignin } from './auth/start-session';
import { loadCookies } from './cookies/cookies';

/** What the bootstrap found out: the configuration and the sign-in, or why the configuration could not be loaded. */
export type ConsoleStart =
  | { config: PublicConfig; userManager: UserManager; startup: Exclude<StartupSignin, { status: 'signed-out' }> }
  | { configError: unknown };

/** Renders the console into #root (loaded by the bootstrap once the visitor is signed in, or to show why not). */
export async function startConsole(start: ConsoleStart): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  // The remembered choices are read before the first render, which shows them.
  await loadCookies();
  createRoot(container).render(
    <StrictMode>
      <App start={start} />
    </StrictMode>,
  );
}
