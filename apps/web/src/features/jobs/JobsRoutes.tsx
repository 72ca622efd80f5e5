import { Route, Routes } from '../../router/router';
import { NotFoundPage } from '../not-found/NotFoundPage';
import { lazyPage } from '../../app/router/lazy-page';

// Each page is its own chunk, loaded when first shown.
const JobPage = lazyPage(() => import('./JobPage'), 'JobPage');
const JobsListPage = lazyPage(() => import('./JobsListPage'), 'JobsListPage');
const NewJobPage = lazyPage(() => import('./NewJobPage'), 'NewJobPage');

/** Everything under /jobs (realm ADMIN, issue 64). */
export function JobsRoutes() {
  return (
    <Routes>
      <Route index element={<JobsListPage />} />
      <Route path="new" element={<NewJobPage />} />
      <Route path=":id" element={<JobPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
