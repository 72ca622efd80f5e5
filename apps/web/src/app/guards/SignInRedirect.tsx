import { useEffect, useRef } from 'react';
import { useAuth } from '../auth/AuthContext';
import { FullPageLoader } from '../startup/FullPageLoader';
import { StartupError } from '../startup/StartupError';
import { describeSigninFailure } from '../auth/signin-errors';

/** Sends a signed-out user to the provider's sign-in page; they come back to `returnUrl`. */
export function SignInRedirect({ returnUrl }: { returnUrl: string }) {
  const auth = useAuth();
  const requested = useRef(false);

  useEffect(() => {
    if (requested.current) return;
    requested.current = true;
    // In place of this page, which only redirects: Back from the provider then leads to where the
    // user came from, not here again (Chromium also marks such a redirect's entry as skippable).
    void auth.signinRedirect({ state: returnUrl, redirectMethod: 'replace' });
  }, [auth, returnUrl]);

  if (auth.error?.source === 'signinRedirect') {
    const { summary, detail } = describeSigninFailure(auth.error);
    return <StartupError summary={summary} detail={detail} />;
  }
  return <FullPageLoader label="Redirecting to sign in…" />;
}
