import type { OidcClient } from './oidc/oidc-client';
import { CALLBACK_PATH, safeReturnUrl } from './return-url';
import { isSignedOutAnswer } from './signin-errors';

export type StartupSignin =
  | { status: 'ready' }
  | { status: 'signed-out' }
  | { status: 'failed'; error: unknown; afterCallback: boolean };

/**
 * Establishes who is signed in when the console loads, before its code is loaded. Tokens are kept in
 * memory only, so on every load either the provider's redirect is completed (the callback page) or
 * the provider is asked without any prompt (prompt=none in the hidden silent-check iframe) whether
 * its session is still alive. "Nobody is signed in" is a normal outcome; anything else (provider
 * unreachable, broken or replayed callback) is a failure the console reports.
 */
export async function startSession(userManager: OidcClient, location: Location = window.location): Promise<StartupSignin> {
  if (location.pathname === CALLBACK_PATH) {
    try {
      const user = await userManager.signinCallback();
      // Back from the provider: on to the page the user asked for, without code and state in the URL.
      window.history.replaceState(null, '', safeReturnUrl(user?.state));
      return { status: 'ready' };
    } catch (error) {
      return { status: 'failed', error, afterCallback: true };
    }
  }
  try {
    await userManager.signinSilent();
    return { status: 'ready' };
  } catch (error) {
    return isSignedOutAnswer(error) ? { status: 'signed-out' } : { status: 'failed', error, afterCallback: false };
  }
}
