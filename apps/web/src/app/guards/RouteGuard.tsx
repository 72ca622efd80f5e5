import { Outlet, useLocation, useMatches } from 'react-router';
import { AccessDeniedPage } from '../../features/access-denied/AccessDeniedPage';
import { currentAppUrl } from '../auth/return-url';
import { useSession } from '../auth/useSession';
import { missingRoles, requiredRoles } from './route-access';
import { SignInRedirect } from './SignInRedirect';
import { FullPageLoader } from '../startup/FullPageLoader';

/**
 * Every page needs a signed-in user; routes add the roles they require (realm or console client roles) in their `handle`.
 * Signed out: sign in, then come back here. Missing a role: the access-denied page is shown in
 * place, so the URL still says what was asked for.
 */
export function RouteGuard() {
  const session = useSession();
  const location = useLocation();
  const matches = useMatches();

  // Logout drops the local user before leaving for the provider; signing in again now would race
  // the logout navigation and win, keeping the provider session alive.
  if (session.isSigningOut) return <FullPageLoader label="Signing out…" />;
  if (!session.isAuthenticated) return <SignInRedirect returnUrl={currentAppUrl(location)} />;
  const missing = missingRoles(requiredRoles(matches), session.details?.roles ?? []);
  if (missing.length > 0) return <AccessDeniedPage />;
  return <Outlet />;
}
