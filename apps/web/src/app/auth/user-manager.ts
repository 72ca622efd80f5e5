import type { PublicConfig } from '@fleetlink/contract';
// Not the package's index: the bootstrap imports this module, and the index would bring every schema.
import { SILENT_CHECK_PATH } from '@fleetlink/contract/web-paths';
import { OidcClient } from './oidc/oidc-client';
import { CALLBACK_PATH } from './return-url';

/** Seconds before expiry at which the access token is renewed: it is always valid for at least this. */
export const TOKEN_MIN_VALIDITY_SECONDS = 20;
/** How long an unfinished sign-in (state and PKCE verifier) is kept before it is cleared as stale. */
export const SIGNIN_STATE_MAX_AGE_SECONDS = 60 * 60;
/** How long a request to the provider, or the hidden-iframe sign-in, waits for it before giving up. */
export const PROVIDER_TIMEOUT_SECONDS = 10;


/**
 * The OIDC client of the console, configured from the server's public configuration: authorization
 * code flow with PKCE (S256). Tokens live in memory only, never in localStorage or sessionStorage
 * where any injected script could read them; a reload signs the user in again silently through the
 * provider's session. No check-session frame (the session is followed through token renewal) and no
 * userinfo round trip (name, email and username come with the ID token).
 */
export function createUserManager(config: PublicConfig, origin = window.location.origin): OidcClient {
  return new OidcClient({
    authority: config.oidc.authority,
    client_id: config.oidc.clientId,
    scope: config.oidc.scope,
    redirect_uri: `${origin}${CALLBACK_PATH}`,
    silent_redirect_uri: `${origin}${SILENT_CHECK_PATH}`,
    post_logout_redirect_uri: `${origin}/`,
    renew_before_seconds: TOKEN_MIN_VALIDITY_SECONDS,
    provider_timeout_seconds: PROVIDER_TIMEOUT_SECONDS,
    stale_state_seconds: SIGNIN_STATE_MAX_AGE_SECONDS,
  });
}
