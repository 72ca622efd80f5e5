import type { UserManager } from 'oidc-client-ts';
import { useEffect } from 'react';
import { currentAppUrl } from './return-url';

/**
 * The access token is renewed shortly before it expires. When renewal fails (refresh token rejected,
 * provider session gone) the stale tokens are dropped and the user signs in again, coming back to
 * the page they were on.
 */
export function useRenewFailureRedirect(userManager: UserManager): void {
  useEffect(
    () =>
      userManager.events.addSilentRenewError(async () => {
        await userManager.removeUser();
        await userManager.signinRedirect({ state: currentAppUrl(window.location) });
      }),
    [userManager],
  );
}
