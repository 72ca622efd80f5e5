import type { ReactNode } from 'react';
import { StartupError } from '../startup/StartupError';
import type { OidcClient } from './oidc/oidc-client';
import { describeSigninFailure } from './signin-errors';
import type { StartupSignin } from './start-session';
import { useSessionRenewal } from './useSessionRenewal';

/** Renders the console once the session is loaded, or a clear error when the startup sign-in failed. */
export function SessionGate({ userManager, startup, children }: { userManager: OidcClient; startup: StartupSignin; children: ReactNode }) {
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
  return children;
}
