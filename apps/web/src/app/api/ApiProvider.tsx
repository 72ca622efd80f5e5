import type { OidcClient } from '../auth/oidc/oidc-client';
import { useState, type ReactNode } from 'react';
import { ApiContext } from './ApiContext';
import { createConsoleApi } from './console-api';

/** Provides the API client, reading the access token from the session's user manager per request. */
export function ApiProvider({ userManager, children }: { userManager: OidcClient; children: ReactNode }) {
  const [api] = useState(() => createConsoleApi(userManager));
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}
