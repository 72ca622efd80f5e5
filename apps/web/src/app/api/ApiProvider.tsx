import type { UserManager } from 'oidc-client-ts';
import { useState, type ReactNode } from 'react';
import { showAlert } from '../toasts/show-alert';
import { createApiClient } from './api-client';
import { ApiContext } from './ApiContext';

/** Provides the API client, reading the access token from the session's user manager per request. */
export function ApiProvider({ userManager, children }: { userManager: UserManager; children: ReactNode }) {
  const [api] = useState(() =>
    createApiClient({
      getAccessToken: async () => (await userManager.getUser())?.access_token,
      onError: (message) => showAlert(message),
    }),
  );
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}
