import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../not-found/NotFoundPage';
import { ServerCreatePage, ServerEditPage } from './ServerFormPage';
import { ServerListPage } from './ServerListPage';

/** Everything under /servers (SPEC §2 Administration); mounted by the shell's router (ADMIN). */
export function ServersRoutes() {
  return (
    <Routes>
      <Route index element={<ServerListPage />} />
      <Route path="new" element={<ServerCreatePage />} />
      <Route path=":id" element={<ServerEditPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
