import type { PublicConfig } from '@fleetlink/contract';
// Not the package's index: the bootstrap imports this module, and the index would bring every schema.
import { SILENT_CHECK_PATH } from '@fleetlink/contract/web-paths';
import { InMemoryWebStorage, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import { CALLBACK_PATH } from './return-url';

/** Seconds before expiry at which the access token is renewed: it is always valid for at least this. */
export const TOKEN_MIN_VALIDITY_SECONDS = 20;
/** How long an unfinished sign-in (state and PKCE verifier) is kept before it is cleared as stale. */
export const SIGNIN_STATE_MAX_AGE_SECONDS = 60 * 60;
/** How long the hidden-iframe sign-in waits for the provider before giving up. */
export const SILENT_SIGNIN_TIMEOUT_SECONDS = 10;


/** The OIDC client of the console, configured from the server's public configuration. */
export function createUserManager(config: PublicConfig, origin = window.location.origin): UserManager {
  return new UserManager({
    authority: config.oidc.authority,
    client_id: config.oidc.clientId,
    scope: config.oidc.scope,
    // Authorization code flow; oidc-client-ts always adds PKCE (S256, a 96-character verifier).
    response_type: 'code',
    redirect_uri: `${origin}${CALLBACK_PATH}`,
    silent_redirect_uri: `${origin}${SILENT_CHECK_PATH}`,
    post_logout_redirect_uri: `${origin}/`,
    // Tokens live in memory only, never in localStorage/sessionStorage where any injected script could
    // read them. A reload signs the user in again silently through the provider's session.
    userStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
    staleStateAgeInSeconds: SIGNIN_STATE_MAX_AGE_SECONDS,
    accessTokenExpiringNotificationTimeInSeconds: TOKEN_MIN_VALIDITY_SECONDS,
    automaticSilentRenew: true,
    silentRequestTimeoutInSeconds: SILENT_SIGNIN_TIMEOUT_SECONDS,
    // No check-session iframe: session state is followed through token renewal instead.
    monitorSession: false,
    checkSessionIntervalInSeconds: 5,
    // Name, email and username come with the ID token; no extra userinfo round trip.
    loadUserInfo: false,
  });
}
