import { Alert } from '@mantine/core';
import { Route, Routes, useParams } from '../../router/router';
import { NotFoundPage } from '../not-found/NotFoundPage';
import { canManage, useOrganization } from './organization-api';
import { lazyPage } from '../../app/router/lazy-page';

// Each page is its own chunk, loaded when first shown.
const OrganizationAlertsPage = lazyPage(() => import('../alerts/AlertRulesPage'), 'OrganizationAlertsPage');
const OrganizationActivityPage = lazyPage(() => import('../audit/OrganizationActivityPage'), 'OrganizationActivityPage');
const OrganizationInvoicesPage = lazyPage(() => import('../invoices/OrganizationInvoicesPage'), 'OrganizationInvoicesPage');
const OrganizationDomainsPage = lazyPage(() => import('./OrganizationDomainsPage'), 'OrganizationDomainsPage');
const OrganizationCreatePage = lazyPage(() => import('./OrganizationFormPage'), 'OrganizationCreatePage');
const OrganizationEditPage = lazyPage(() => import('./OrganizationFormPage'), 'OrganizationEditPage');
const OrganizationLayout = lazyPage(() => import('./OrganizationLayout'), 'OrganizationLayout');
const OrganizationListPage = lazyPage(() => import('./OrganizationListPage'), 'OrganizationListPage');
const OrganizationMembersPage = lazyPage(() => import('./OrganizationMembersPage'), 'OrganizationMembersPage');
const OrganizationSummaryPage = lazyPage(() => import('./OrganizationSummaryPage'), 'OrganizationSummaryPage');

function ManagersOnly({ children, what }: { children: React.ReactNode; what: string }) {
  const { id } = useParams();
  const { data } = useOrganization(id);
  if (!data) return null;
  return canManage(data.role) ? (
    children
  ) : (
    <Alert color="yellow" title="Not allowed">
      Only the creator or an administrator of this organization can {what}.
    </Alert>
  );
}

/** Everything under /organizations (SPEC §2 Organizations); mounted by the shell's router. */
export function OrganizationsRoutes() {
  return (
    <Routes>
      <Route index element={<OrganizationListPage />} />
      <Route path="new" element={<OrganizationCreatePage />} />
      <Route path=":id" element={<OrganizationLayout />}>
        <Route index element={<OrganizationSummaryPage />} />
        <Route path="members" element={<OrganizationMembersPage />} />
        <Route path="domain" element={<OrganizationDomainsPage />} />
        <Route
          path="edit"
          element={
            <ManagersOnly what="edit it">
              <OrganizationEditPage />
            </ManagersOnly>
          }
        />
        <Route
          path="activity"
          element={
            <ManagersOnly what="see its activity">
              <OrganizationActivityPage />
            </ManagersOnly>
          }
        />
        <Route
          path="alerts"
          element={
            <ManagersOnly what="manage its alerts">
              <OrganizationAlertsPage />
            </ManagersOnly>
          }
        />
        <Route path="invoices" element={<OrganizationInvoicesPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
