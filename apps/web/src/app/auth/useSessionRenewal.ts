import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import type { OidcClient } from './oidc/oidc-client';
import { classifyRenewalFailure } from './renewal-failure';

/** How long to wait before trying again to renew when the provider could not be reached. */
export const RENEWAL_RETRY_SECONDS = 5;
const UNREACHABLE_TOAST = 'session-renewal-unreachable';

/**
 * The access token is renewed shortly before it expires (SPEC §8):
 * - renewal refused by the provider (400, `invalid_grant`): the tokens are dropped and the route
 *   guard sends the user to sign in, coming back to the page they were on;
 * - provider not reachable: the session is kept, a toast says why, and renewal is retried every
 *   few seconds until it works (the toast goes) or the access token expires (then sign in again).
 */
export function useSessionRenewal(userManager: OidcClient): void {
  useEffect(() => {
    let retry: ReturnType<typeof setTimeout> | undefined;
    let toastShown = false;
    const hideToast = () => {
      if (toastShown) notifications.hide(UNREACHABLE_TOAST);
      toastShown = false;
    };
    // Every page is behind the route guard, which sends a signed-out user to sign in and back to
    // the same page: dropping the tokens is all it takes (a second redirect from here would race it).
    const signInAgain = async () => {
      clearTimeout(retry);
      hideToast();
      await userManager.removeUser();
    };
    const onFailure = async (error: unknown) => {
      if (classifyRenewalFailure(error) === 'rejected') return signInAgain();
      const user = await userManager.getUser();
      if (!user || user.expired) return signInAgain();
      if (!toastShown) {
        toastShown = true;
        notifications.show({
          id: UNREACHABLE_TOAST,
          title: 'Session not renewed',
          message: `The identity provider cannot be reached to renew your session. Retrying every ${RENEWAL_RETRY_SECONDS} seconds; you stay signed in until your access token expires.`,
          color: 'yellow',
          autoClose: false,
          withCloseButton: true,
          withBorder: true,
          'data-alert': 'session-renewal',
        });
      }
      clearTimeout(retry);
      retry = setTimeout(() => {
        userManager.signinSilent().then(hideToast, onFailure);
      }, RENEWAL_RETRY_SECONDS * 1000);
    };

    const removeRenewError = userManager.events.silentRenewError.add(onFailure);
    // Renewal kept failing until the token ran out: the session is over.
    const removeExpired = userManager.events.accessTokenExpired.add(() => void signInAgain());
    return () => {
      removeRenewError();
      removeExpired();
      clearTimeout(retry);
    };
  }, [userManager]);
}
