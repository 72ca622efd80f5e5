import { BrowserRouter, useRoutes } from 'react-router';
import { routes } from './routes';

function MatchedRoute() {
  return useRoutes(routes);
}

/**
 * React Router in its declarative form: the console loads no data through the router, and the data
 * router (createBrowserRouter) would add some 15 kB to every first load (issue 68). BrowserRouter
 * reads the URL when it first renders: after a sign-in callback the URL was rewritten to the
 * requested page before, so it starts from that page.
 */
export function AppRouter() {
  return (
    <BrowserRouter>
      <MatchedRoute />
    </BrowserRouter>
  );
}
