import { UserManager } from 'oidc-client-ts';

// The iframe page for signinSilent (startup SSO check and token renewal). It only posts its own URL,
// which carries the provider's code or error, to the parent window; the parent completes the exchange.
// The settings are required by the constructor but unused by signinSilentCallback: it makes no request.
const origin = window.location.origin;
void new UserManager({
  authority: origin,
  client_id: 'silent-callback',
  redirect_uri: origin,
  automaticSilentRenew: false,
}).signinSilentCallback();
