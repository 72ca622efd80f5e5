import { RealmRole } from '@fleetlink/contract';
import { Navigate, type RouteObject } from 'react-router';
import { AgentRoutes } from '../../features/agent/AgentRoutes';
import { RealmAlertsPage } from '../../features/alerts/AlertRulesPage';
import { AuditTrailPage } from '../../features/audit/AuditTrailPage';
import { AccessDeniedPage } from '../../features/access-denied/AccessDeniedPage';
import { ContactPage } from '../../features/contact/ContactPage';
import { DevicesRoutes } from '../../features/devices/DevicesRoutes';
import { OperatorPage } from '../../features/devices/OperatorPage';
import { HomePage } from '../../features/home/HomePage';
import { JobsRoutes } from '../../features/jobs/JobsRoutes';
import { PrivacyPolicyPage } from '../../features/legal/PrivacyPolicyPage';
import { TermsOfServicePage } from '../../features/legal/TermsOfServicePage';
import { NotFoundPage } from '../../features/not-found/NotFoundPage';
import { OrganizationsRoutes } from '../../features/organizations/OrganizationsRoutes';
import { ApiTokensPage } from '../../features/profile/ApiTokensPage';
import { ServersRoutes } from '../../features/servers/ServersRoutes';
import { CALLBACK_PATH } from '../auth/return-url';
import { RouteGuard } from '../guards/RouteGuard';
import type { RouteAccess } from '../guards/route-access';
import { AppLayout } from '../layout/AppLayout';
import { RouteErrorPage } from './RouteErrorPage';

const needs = (...roles: RouteAccess['roles'] & {}): RouteAccess => ({ roles });
const user = needs(RealmRole.User);
const admin = needs(RealmRole.Admin);

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      // Reached only if the callback was already handled; the URL was cleaned before the router started.
      { path: CALLBACK_PATH, element: <Navigate to="/" replace /> },
      {
        element: <RouteGuard />,
        errorElement: <RouteErrorPage />,
        children: [
          { index: true, element: <HomePage />, handle: user },
          { path: 'devices/*', element: <DevicesRoutes />, handle: user },
          { path: 'organizations/*', element: <OrganizationsRoutes />, handle: user },
          { path: 'servers/*', element: <ServersRoutes />, handle: admin },
          { path: 'agent/*', element: <AgentRoutes />, handle: admin },
          { path: 'jobs/*', element: <JobsRoutes />, handle: admin },
          { path: 'operator', element: <OperatorPage />, handle: admin },
          { path: 'operator/audit', element: <AuditTrailPage />, handle: admin },
          { path: 'operator/alerts', element: <RealmAlertsPage />, handle: admin },
          // Login only.
          { path: 'profile/api-tokens', element: <ApiTokensPage /> },
          { path: 'terms-service', element: <TermsOfServicePage /> },
          { path: 'privacy-policy', element: <PrivacyPolicyPage /> },
          { path: 'access-denied', element: <AccessDeniedPage /> },
          { path: 'contact', element: <ContactPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
