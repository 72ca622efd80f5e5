import type { ReactNode } from 'react';
import { AuthProvider } from './AuthContext';
import type { OidcClient } from './oidc/oidc-client';
import { ApiProvider } from '../api/ApiProvider';
import { SessionGate } from './SessionGate';
import type { StartupSignin } from './start-session';

/** The OIDC session of the console (started by the bootstrap): sign-in state and the API client using it. */
export function AuthSession({ userManager, startup, children }: { userManager: OidcClient; startup: StartupSignin; children: ReactNode }) {
  return (
    // The bootstrap already completed any redirect from the provider (startSession).
    <AuthProvider client={userManager}>
      <SessionGate userManager={userManager} startup={startup}>
        <ApiProvider userManager={userManager}>{children}</ApiProvider>
      </SessionGate>
    </AuthProvider>
  );
}
