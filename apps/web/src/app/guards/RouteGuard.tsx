import { Outlet, useLocation, useMatches } from 'react-router';
import { AccessDeniedPage } from '../../features/access-denied/AccessDeniedPage';
import { currentAppUrl } from '../auth/return-url';
import { useSession } from '../auth/useSession';
import { missingRoles, requiredRoles } from './route-access';
import { SignInRedirect } from './SignInRedirect';

/**
 * Every page needs a signed-in user; routes add the realm roles they require in their `handle`.
 * Signed out: sign in, then come back here. Missing a role: the access-denied page is shown in
 * place, so the URL still says what was asked for.
 */
export function RouteGuard() {
  const session = useSession();
  const location = useLocation();
  const matches = useMatches();

  if (!session.isAuthenticated) return <SignInRedirect returnUrl={currentAppUrl(location)} />;
  const missing = missingRoles(requiredRoles(matches), session.details?.realmRoles ?? []);
  if (missing.length > 0) return <AccessDeniedPage />;
  return <Outlet />;
}
