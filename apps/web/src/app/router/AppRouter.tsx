import { BrowserRouter, useRoutes } from '../../router/router';
import { routes } from './routes';

function MatchedRoute() {
  return useRoutes(routes);
}

/**
 * The console's own router (src/router), React Router's declarative API in the part the console uses:
 * the console loads no data through its router, and React Router was 14 kB of every first load
 * (issue 68). BrowserRouter reads the URL when it first renders: after a sign-in callback the URL was
 * rewritten to the requested page before, so it starts from that page.
 */
export function AppRouter() {
  return (
    <BrowserRouter>
      <MatchedRoute />
    </BrowserRouter>
  );
}
