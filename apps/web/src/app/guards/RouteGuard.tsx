import { matchRoutes, Outlet, useLocation, type RouteObject } from '../../router/router';
import { AccessDeniedPage } from '../../features/access-denied/AccessDeniedPage';
import { currentAppUrl } from '../auth/return-url';
import { useSession } from '../auth/useSession';
import { missingRoles, requiredRoles } from './route-access';
import { SignInRedirect } from './SignInRedirect';
import { FullPageLoader } from '../startup/FullPageLoader';
import { RouteErrorBoundary } from '../router/RouteErrorBoundary';

/**
 * Every page needs a signed-in user; `pages` (the routes below this one) add the roles they require
 * (realm or console client roles) in their `handle`.
 * Signed out: sign in, then come back here. Missing a role: the access-denied page is shown in
 * place, so the URL still says what was asked for.
 */
export function RouteGuard({ pages }: { pages: RouteObject[] }) {
  const session = useSession();
  const location = useLocation();
  // The guard's own route has no path, so the pages below it match the whole URL.
  const matches = (matchRoutes(pages, location) ?? []).map((match) => ({ handle: match.route.handle }));

  // Logout drops the local user before leaving for the provider; signing in again now would race
  // the logout navigation and win, keeping the provider session alive.
  if (session.isSigningOut) return <FullPageLoader label="Signing out…" />;
  if (!session.isAuthenticated) return <SignInRedirect returnUrl={currentAppUrl(location)} />;
  const missing = missingRoles(requiredRoles(matches), session.details?.roles ?? []);
  if (missing.length > 0) return <AccessDeniedPage />;
  return (
    <RouteErrorBoundary>
      <Outlet />
    </RouteErrorBoundary>
  );
}
