import type { UserManager } from 'oidc-client-ts';
import { useEffect, useRef, useState } from 'react';
import { useAuth } from 'react-oidc-context';
import { isSignedOutAnswer } from './signin-errors';

export type StartupSignin =
  | { status: 'pending' }
  | { status: 'ready' }
  | { status: 'failed'; error: unknown; afterCallback: boolean };

/**
 * Establishes who is signed in when the console loads. Tokens are kept in memory only, so on every
 * load the provider is asked without any prompt (prompt=none in the hidden silent-check iframe)
 * whether its session is still alive. "Nobody is signed in" is a normal outcome; anything else
 * (provider unreachable, broken callback) rejects the start and is reported.
 */
export function useStartupSignin(userManager: UserManager): StartupSignin {
  const auth = useAuth();
  const [state, setState] = useState<StartupSignin>({ status: 'pending' });
  const started = useRef(false);

  useEffect(() => {
    // Wait for react-oidc-context to finish (it completes a redirect callback first), then run once.
    if (auth.isLoading || started.current) return;
    started.current = true;

    if (auth.error) {
      setState({ status: 'failed', error: auth.error, afterCallback: true });
      return;
    }
    if (auth.isAuthenticated) {
      setState({ status: 'ready' });
      return;
    }
    void userManager.clearStaleState();
    userManager.signinSilent().then(
      () => setState({ status: 'ready' }),
      (error: unknown) =>
        setState(isSignedOutAnswer(error) ? { status: 'ready' } : { status: 'failed', error, afterCallback: false }),
    );
  }, [auth.isLoading, auth.isAuthenticated, auth.error, userManager]);

  return state;
}
