import type { OidcClient } from '../auth/oidc/oidc-client';
import { showAlert } from '../toasts/show-alert';
import { createApiClient, type ApiClient } from './api-client';

/** The console's API client: the access token read from the session's user manager per request, errors shown as alerts. */
export function createConsoleApi(userManager: OidcClient): ApiClient {
  return createApiClient({
    getAccessToken: async () => (await userManager.getUser())?.access_token,
    onError: (message) => showAlert(message),
  });
}
