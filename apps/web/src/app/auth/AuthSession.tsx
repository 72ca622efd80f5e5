import type { PublicConfig } from '@fleetlink/contract';
import type { User } from 'oidc-client-ts';
import { useState, type ReactNode } from 'react';
import { AuthProvider } from 'react-oidc-context';
import { ApiProvider } from '../api/ApiProvider';
import { CALLBACK_PATH, safeReturnUrl } from './return-url';
import { SessionGate } from './SessionGate';
import { createUserManager } from './user-manager';

/** Back from the provider: go to the page the user asked for, dropping code and state from the URL. */
function returnToRequestedPage(user: User | undefined): void {
  window.history.replaceState(null, '', safeReturnUrl(user?.state));
}

/** The OIDC session of the console: sign-in state, the startup check, and the API client using it. */
export function AuthSession({ config, children }: { config: PublicConfig; children: ReactNode }) {
  const [userManager] = useState(() => createUserManager(config));
  return (
    <AuthProvider
      userManager={userManager}
      // Only the callback route redeems an authorization code; query strings elsewhere are the app's.
      skipSigninCallback={window.location.pathname !== CALLBACK_PATH}
      onSigninCallback={returnToRequestedPage}
    >
      <SessionGate userManager={userManager}>
        <ApiProvider userManager={userManager}>{children}</ApiProvider>
      </SessionGate>
    </AuthProvider>
  );
}
