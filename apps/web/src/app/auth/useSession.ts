import type { RealmRole } from '@fleetlink/contract';
import { useCallback, useMemo } from 'react';
import { useAuth } from './AuthContext';
import { usePublicConfig } from '../startup/usePublicConfig';
import { rememberSession } from './session-hint';
import { readAuthDetails, type AuthDetails } from './token-claims';

export interface Session {
  isAuthenticated: boolean;
  /** Logout is on its way to the provider; the local user is already gone. */
  isSigningOut: boolean;
  /** From the access token; null when signed out. */
  details: AuthDetails | null;
  /** Full name and username from the user profile (ID token). */
  name: string | null;
  username: string | null;
  /** The email the provider has for the user (ID token), to prefill forms with. */
  email: string | null;
  hasRole: (role: RealmRole) => boolean;
  signIn: (returnUrl: string) => Promise<void>;
  signOut: () => Promise<void>;
}

/** The signed-in user as the console's screens need it. */
export function useSession(): Session {
  const auth = useAuth();
  const user = auth.isAuthenticated ? auth.user : undefined;
  const accessToken = user?.access_token;
  const clientId = auth.settings.client_id;
  // Loaded before the console starts: the groups the API maps to roles.
  const { roleMapping } = usePublicConfig();
  const details = useMemo(() => (accessToken ? readAuthDetails(accessToken, clientId, roleMapping) : null), [accessToken, clientId, roleMapping]);
  const hasRole = useCallback((role: RealmRole) => details?.roles.includes(role) ?? false, [details]);
  const { signinRedirect, signoutRedirect } = auth;

  return {
    isAuthenticated: auth.isAuthenticated,
    isSigningOut: auth.activeNavigator === 'signoutRedirect',
    details,
    name: user?.profile.name ?? null,
    username: user?.profile.preferred_username ?? details?.username ?? null,
    email: user?.profile.email ?? null,
    hasRole,
    signIn: (returnUrl) => signinRedirect({ state: returnUrl }),
    // Ends the session at the provider too (RP-initiated logout), then comes back to the console.
    signOut: () => {
      rememberSession(false);
      return signoutRedirect();
    },
  };
}
