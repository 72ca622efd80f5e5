import { Navigate, Route, Routes } from '../../router/router';
import { NotFoundPage } from '../not-found/NotFoundPage';
import { lazyPage } from '../../app/router/lazy-page';

// Each page is its own chunk, loaded when first shown.
const AgentLayout = lazyPage(() => import('./AgentLayout'), 'AgentLayout');
const BundleListPage = lazyPage(() => import('./BundleListPage'), 'BundleListPage');
const ReleaseFormPage = lazyPage(() => import('./ReleaseFormPage'), 'ReleaseFormPage');
const ReleaseListPage = lazyPage(() => import('./ReleaseListPage'), 'ReleaseListPage');

/** Everything under /agent (SPEC §2 Administration), realm ADMIN: /agent goes to bundles; the release form has no tabs. */
export function AgentRoutes() {
  return (
    <Routes>
      <Route index element={<Navigate to="bundles" replace />} />
      <Route element={<AgentLayout />}>
        <Route path="bundles" element={<BundleListPage />} />
        <Route path="releases" element={<ReleaseListPage />} />
      </Route>
      <Route path="releases/new" element={<ReleaseFormPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
