import { currentAppUrl } from '../app/auth/return-url';
import { startSession, type StartupSignin } from '../app/auth/start-session';
import { createUserManager } from '../app/auth/user-manager';
import { fetchPublicConfig } from '../app/startup/public-config';
import type { ConsoleStart } from '../app/console';

/**
 * The first script of every page load, and all that a signed-out visitor downloads before being sent
 * to sign in (the OIDC client, no React, no Mantine): it loads the sign-in configuration, completes
 * or checks the sign-in, and only then loads the console, handing it what it found out.
 */
async function boot(): Promise<void> {
  let start: ConsoleStart;
  try {
    const config = await fetchPublicConfig();
    const userManager = createUserManager(config);
    const startup: StartupSignin = await startSession(userManager);
    if (startup.status === 'signed-out') {
      // In place of this page: Back from the provider leads to where the visitor came from.
      try {
        await userManager.signinRedirect({ state: currentAppUrl(window.location), redirectMethod: 'replace' });
        return;
      } catch (error) {
        start = { config, userManager, startup: { status: 'failed', error, afterCallback: false } };
      }
    } else {
      start = { config, userManager, startup };
    }
  } catch (error) {
    start = { configError: error };
  }
  const { startConsole } = await import('../app/console');
  await startConsole(start);
}

void boot();
