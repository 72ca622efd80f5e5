import type { UserManager } from 'oidc-client-ts';
import type { ReactNode } from 'react';
import { AuthProvider } from 'react-oidc-context';
import { ApiProvider } from '../api/ApiProvider';
import { SessionGate } from './SessionGate';
import type { StartupSignin } from './start-session';

/** The OIDC session of the console (started by the bootstrap): sign-in state and the API client using it. */
export function AuthSession({ userManager, startup, children }: { userManager: UserManager; startup: StartupSignin; children: ReactNode }) {
  return (
    // The bootstrap already completed any redirect from the provider (startSession).
    <AuthProvider userManager={userManager} skipSigninCallback>
      <SessionGate userManager={userManager} startup={startup}>
        <ApiProvider userManager={userManager}>{children}</ApiProvider>
      </SessionGate>
    </AuthProvider>
  );
}
