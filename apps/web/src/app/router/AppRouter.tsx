import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { routes } from './routes';

/**
 * Created on first render, not at import: after a sign-in callback the URL is rewritten to the
 * requested page first, and the router must start from that URL.
 */
export function AppRouter() {
  const [router] = useState(() => createBrowserRouter(routes));
  return <RouterProvider router={router} />;
}
