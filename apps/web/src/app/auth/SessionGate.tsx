import type { UserManager } from 'oidc-client-ts';
import type { ReactNode } from 'react';
import { FullPageLoader } from '../startup/FullPageLoader';
import { StartupError } from '../startup/StartupError';
import { describeSigninFailure } from './signin-errors';
import { useSessionRenewal } from './useSessionRenewal';
import { useStartupSignin } from './useStartupSignin';

/** Renders the console once the startup sign-in check is over, or a clear error when it failed. */
export function SessionGate({ userManager, children }: { userManager: UserManager; children: ReactNode }) {
  const startup = useStartupSignin(userManager);
  useSessionRenewal(userManager);

  if (startup.status === 'pending') return <FullPageLoader label="Signing in…" />;
  if (startup.status === 'failed') {
    const { summary, detail } = describeSigninFailure(startup.error);
    return startup.afterCallback ? (
      // A broken or replayed callback cannot be retried as is; start a fresh sign-in from home.
      <StartupError summary={summary} detail={detail} actionLabel="Sign in again" onAction={() => window.location.assign('/')} />
    ) : (
      <StartupError summary={summary} detail={detail} />
    );
  }
  return children;
}
