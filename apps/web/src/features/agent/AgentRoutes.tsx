import { Navigate, Route, Routes } from 'react-router';
import { NotFoundPage } from '../not-found/NotFoundPage';
import { AgentLayout } from './AgentLayout';
import { BundleListPage } from './BundleListPage';
import { ReleaseFormPage } from './ReleaseFormPage';
import { ReleaseListPage } from './ReleaseListPage';

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
