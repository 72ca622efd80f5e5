import { Route, Routes } from '../../router/router';
import { NotFoundPage } from '../not-found/NotFoundPage';
import { lazyPage } from '../../app/router/lazy-page';

// Each page is its own chunk, loaded when first shown.
const ServerCreatePage = lazyPage(() => import('./ServerFormPage'), 'ServerCreatePage');
const ServerEditPage = lazyPage(() => import('./ServerFormPage'), 'ServerEditPage');
const ServerListPage = lazyPage(() => import('./ServerListPage'), 'ServerListPage');

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
