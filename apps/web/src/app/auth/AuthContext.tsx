import { createContext, useCallback, useContext, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { OidcClient, OidcSettings } from './oidc/oidc-client';
import type { OidcUser } from './oidc/oidc-user';

/** A sign-in or sign-out that could not leave for the provider, as the pages show it. */
export interface NavigatorError {
  source: 'signinRedirect' | 'signoutRedirect';
  name: string;
  message: string;
  innerError: unknown;
}

export interface Auth {
  user: OidcUser | null;
  isAuthenticated: boolean;
  /** The browser is on its way to the provider to sign in or out. */
  activeNavigator: 'signinRedirect' | 'signoutRedirect' | undefined;
  error: NavigatorError | undefined;
  settings: OidcSettings;
  signinRedirect: (args?: { state?: unknown; redirectMethod?: 'assign' | 'replace' }) => Promise<void>;
  signoutRedirect: () => Promise<void>;
}

const AuthContext = createContext<Auth | null>(null);

/** The console's sign-in state for its pages, kept in step with the OIDC client (started by the bootstrap). */
export function AuthProvider({ client, children }: { client: OidcClient; children: ReactNode }) {
  const subscribe = useCallback((changed: () => void) => client.events.userChanged.add(changed), [client]);
  const user = useSyncExternalStore(subscribe, () => client.current);
  const [activeNavigator, setActiveNavigator] = useState<Auth['activeNavigator']>();
  const [error, setError] = useState<NavigatorError>();

  const navigate = useCallback(async (source: NavigatorError['source'], go: () => Promise<void>) => {
    setActiveNavigator(source);
    setError(undefined);
    try {
      await go();
    } catch (innerError) {
      const { name = 'Error', message = String(innerError) } = innerError instanceof Error ? innerError : {};
      setError({ source, name, message, innerError });
      setActiveNavigator(undefined);
    }
  }, []);

  const auth = useMemo<Auth>(
    () => ({
      user,
      isAuthenticated: user !== null && !user.expired,
      activeNavigator,
      error,
      settings: client.settings,
      signinRedirect: (args) => navigate('signinRedirect', () => client.signinRedirect(args)),
      signoutRedirect: () => navigate('signoutRedirect', () => client.signoutRedirect()),
    }),
    [user, activeNavigator, error, client, navigate],
  );
  return <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth needs an AuthProvider above it.');
  return auth;
}
