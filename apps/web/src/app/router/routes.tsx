import { RealmRole } from '@fleetlink/contract';
import { Navigate, type RouteObject } from '../../router/router';
import { AgentRoutes } from '../../features/agent/AgentRoutes';
import { AccessDeniedPage } from '../../features/access-denied/AccessDeniedPage';
import { DevicesRoutes } from '../../features/devices/DevicesRoutes';
import { JobsRoutes } from '../../features/jobs/JobsRoutes';
import { NotFoundPage } from '../../features/not-found/NotFoundPage';
import { OrganizationsRoutes } from '../../features/organizations/OrganizationsRoutes';
import { ServersRoutes } from '../../features/servers/ServersRoutes';
import { CALLBACK_PATH } from '../auth/return-url';
import { RouteGuard } from '../guards/RouteGuard';
import type { RouteAccess } from '../guards/route-access';
import { AppLayout } from '../layout/AppLayout';
import { RouteErrorBoundary } from './RouteErrorBoundary';
import { lazyPage } from './lazy-page';

// Each page is its own chunk, loaded when first shown.
const RealmAlertsPage = lazyPage(() => import('../../features/alerts/AlertRulesPage'), 'RealmAlertsPage');
const AuditTrailPage = lazyPage(() => import('../../features/audit/AuditTrailPage'), 'AuditTrailPage');
const ContactPage = lazyPage(() => import('../../features/contact/ContactPage'), 'ContactPage');
const OperatorPage = lazyPage(() => import('../../features/devices/OperatorPage'), 'OperatorPage');
const HomePage = lazyPage(() => import('../../features/home/HomePage'), 'HomePage', { path: '/' });
const PrivacyPolicyPage = lazyPage(() => import('../../features/legal/PrivacyPolicyPage'), 'PrivacyPolicyPage');
const TermsOfServicePage = lazyPage(() => import('../../features/legal/TermsOfServicePage'), 'TermsOfServicePage');
const PeoplePage = lazyPage(() => import('../../features/people/PeoplePage'), 'PeoplePage');
const MyAccountPage = lazyPage(() => import('../../features/profile/MyAccountPage'), 'MyAccountPage');
const ApiTokensPage = lazyPage(() => import('../../features/profile/ApiTokensPage'), 'ApiTokensPage');

const needs = (...roles: RouteAccess['roles'] & {}): RouteAccess => ({ roles });
const user = needs(RealmRole.User);
const admin = needs(RealmRole.Admin);

/** The pages behind sign-in, each with the realm roles it requires in its `handle` (RouteGuard reads them). */
const signedInPages: RouteObject[] = [
  { index: true, element: <HomePage />, handle: user },
  { path: 'devices/*', element: <DevicesRoutes />, handle: user },
  { path: 'organizations/*', element: <OrganizationsRoutes />, handle: user },
  { path: 'servers/*', element: <ServersRoutes />, handle: admin },
  { path: 'agent/*', element: <AgentRoutes />, handle: admin },
  { path: 'jobs/*', element: <JobsRoutes />, handle: admin },
  { path: 'operator', element: <OperatorPage />, handle: admin },
  { path: 'operator/audit', element: <AuditTrailPage />, handle: admin },
  { path: 'operator/alerts', element: <RealmAlertsPage />, handle: admin },
  { path: 'operator/people', element: <PeoplePage />, handle: admin },
  // Login only.
  { path: 'profile/api-tokens', element: <ApiTokensPage /> },
  { path: 'profile/account', element: <MyAccountPage /> },
  { path: 'terms-service', element: <TermsOfServicePage /> },
  { path: 'privacy-policy', element: <PrivacyPolicyPage /> },
  { path: 'access-denied', element: <AccessDeniedPage /> },
  { path: 'contact', element: <ContactPage /> },
  { path: '*', element: <NotFoundPage /> },
];

export const routes: RouteObject[] = [
  {
    element: (
      <RouteErrorBoundary>
        <AppLayout />
      </RouteErrorBoundary>
    ),
    children: [
      // Reached only if the callback was already handled; the URL was cleaned before the router started.
      { path: CALLBACK_PATH, element: <Navigate to="/" replace /> },
      { element: <RouteGuard pages={signedInPages} />, children: signedInPages },
    ],
  },
];
