import type { OidcClient } from '../auth/oidc/oidc-client';
import { showAlert } from '../toasts/show-alert';
import type { FirstAnswer } from '../startup/first-question';
import { createApiClient, type ApiClient } from './api-client';

/**
 * The console's API client: the access token read from the session's user manager per request, errors
 * shown as alerts; `firstAnswer`, the bootstrap's answer to the page's first question, taken when asked.
 */
export function createConsoleApi(userManager: OidcClient, firstAnswer?: FirstAnswer): ApiClient {
  return createApiClient({
    firstAnswer,
    getAccessToken: async () => (await userManager.getUser())?.access_token,
    onError: (message) => showAlert(message),
  });
}
