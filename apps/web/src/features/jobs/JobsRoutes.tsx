import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../not-found/NotFoundPage';
import { JobPage } from './JobPage';
import { JobsListPage } from './JobsListPage';
import { NewJobPage } from './NewJobPage';

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
