import type { UserManager } from 'oidc-client-ts';
import type { ReactNode } from 'react';
import { useAuth } from 'react-oidc-context';
import { FullPageLoader } from '../startup/FullPageLoader';
import { StartupError } from '../startup/StartupError';
import { describeSigninFailure } from './signin-errors';
import type { StartupSignin } from './start-session';
import { useSessionRenewal } from './useSessionRenewal';

/** Renders the console once the session is loaded, or a clear error when the startup sign-in failed. */
export function SessionGate({ userManager, startup, children }: { userManager: UserManager; startup: StartupSignin; children: ReactNode }) {
  const auth = useAuth();
  useSessionRenewal(userManager);

  if (startup.status === 'failed') {
    const { summary, detail } = describeSigninFailure(startup.error);
    return startup.afterCallback ? (
      // A broken or replayed callback cannot be retried as is; start a fresh sign-in from home.
      <StartupError summary={summary} detail={detail} actionLabel="Sign in again" onAction={() => window.location.assign('/')} />
    ) : (
      <StartupError summary={summary} detail={detail} />
    );
  }
  if (auth.isLoading) return <FullPageLoader label="Signing in…" />;
  return children;
}
