import { currentAppUrl } from '../app/auth/return-url';
import { hasSessionHint, rememberSession } from '../app/auth/session-hint';
import { startSession } from '../app/auth/start-session';
import { readAuthDetails } from '../app/auth/token-claims';
import { createUserManager } from '../app/auth/user-manager';
import type { ConsoleStart } from '../app/console';
import { loadCookies } from '../app/cookies/cookies';
import { askFirstQuestion, NO_FIRST_ANSWER } from '../app/startup/first-question';
import { fetchPublicConfig } from '../app/startup/public-config';

const loadConsole = () => import('../app/console');

/**
 * The first script of every page load, and all that a signed-out visitor downloads before being sent
 * to sign in (the OIDC client, no React, no Mantine): it loads the sign-in configuration, completes
 * or checks the sign-in, and only then loads the console, handing it what it found out. Someone who
 * was signed in here before (session-hint.ts) has the console loaded meanwhile.
 */
async function boot(): Promise<void> {
  // The remembered choices are read before anything else, which uses them.
  await loadCookies();
  const early = hasSessionHint() ? loadConsole() : undefined;
  // And the code of the page asked for, meanwhile too. Not awaited when the visitor turns out to be
  // signed out: its failure is no one's concern then.
  early?.then((app) => app.preloadLandingPage(window.location.pathname)).catch(() => undefined);

  let start: ConsoleStart;
  try {
    const config = await fetchPublicConfig();
    const userManager = createUserManager(config);
    const startup = await startSession(userManager);
    rememberSession(startup.status === 'ready');
    if (startup.status === 'signed-out') {
      // In place of this page: Back from the provider leads to where the visitor came from.
      try {
        await userManager.signinRedirect({ state: currentAppUrl(window.location), redirectMethod: 'replace' });
        return;
      } catch (error) {
        start = { config, userManager, startup: { status: 'failed', error, afterCallback: false } };
      }
    } else {
      // Signed in: the page's first question now, answered while the console's code downloads.
      const user = startup.status === 'ready' ? await userManager.getUser() : null;
      const firstAnswer = user
        ? askFirstQuestion(window.location, user.access_token, readAuthDetails(user.access_token, config.oidc.clientId, config.roleMapping).roles)
        : NO_FIRST_ANSWER;
      start = { config, userManager, startup, firstAnswer };
    }
  } catch (error) {
    start = { configError: error };
  }
  const { startConsole } = await (early ?? loadConsole());
  // The first question is on its way; the console's first render, the longest task of the load,
  // starts in a task of its own rather than behind it.
  await new Promise((resolve) => setTimeout(resolve, 0));
  startConsole(start);
}

boot().catch((error: unknown) => {
  // The console's code could not be loaded (the network went, or a new release replaced its files):
  // said in place of "Starting Fleetlink…", since nothing else can say it.
  const status = document.querySelector('.boot-status');
  if (status) status.textContent = `Fleetlink could not be loaded (${error instanceof Error ? error.message : String(error)}). Reload the page to try again.`;
  throw error;
});
