import Provider, { errors as oidcErrors, interactionPolicy, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { LEGACY_SILENT_CHECK_PATH, SILENT_CHECK_PATH } from '@fleetlink/contract';
import type { Db } from '../db/client.js';
import { BUILT_IN_AUDIENCE, type Env } from '../env.js';
import { compressProviderAnswers } from './provider-compression.js';
import { answerUnknownProviderPaths } from './provider-unknown-paths.js';
import type { AccountStore } from './accounts.js';
import type { SecretBox } from '../lib/secret-box.js';
import { createAdapterFactory } from './adapter.js';
import { errorPage, logoutConfirmPage, logoutPage } from './pages.js';
import type { IdpSecrets } from './secrets.js';

export const IDP_MOUNT = '/idp';
const API_RESOURCE = 'urn:fleetlink:api';
const DAY = 24 * 60 * 60;

/**
 * The built-in OIDC provider. It issues Keycloak-shaped JWT access tokens (realm_access.roles,
 * resource_access, preferred_username, …) so the console verifies it exactly as it would Keycloak.
 */
export function createProvider(opts: { env: Env; db: Db; box: SecretBox; accounts: AccountStore; secrets: IdpSecrets }) {
  const { env, accounts } = opts;
  const clientId = env.OIDC_CLIENT_ID;

  const configuration: Configuration = {
    adapter: createAdapterFactory(opts.db, opts.box),
    jwks: opts.secrets.jwks as Configuration['jwks'],
    cookies: {
      keys: opts.secrets.cookieKeys,
      // The provider lives on the console's own origin, so its session cookie never has to cross
      // sites: Lax keeps the silent-check iframe and the redirects working, where oidc-provider's
      // default None is refused by browsers over plain http (it needs Secure). Over https the
      // cookies are Secure by themselves (oidc-provider sets it when the request is secure).
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    clients: [
      {
        client_id: clientId,
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [`${env.PUBLIC_URL}/auth/callback`, `${env.PUBLIC_URL}${SILENT_CHECK_PATH}`, `${env.PUBLIC_URL}${LEGACY_SILENT_CHECK_PATH}`],
        post_logout_redirect_uris: [`${env.PUBLIC_URL}/`],
      },
    ],
    claims: {
      openid: ['sub'],
      profile: ['name', 'preferred_username'],
      email: ['email', 'email_verified'],
    },
    async findAccount(_ctx, id) {
      const account = await accounts.findById(id);
      if (!account) return undefined;
      return {
        accountId: id,
        async claims() {
          return {
            sub: id,
            name: account.name,
            preferred_username: account.email,
            email: account.email,
            email_verified: true,
          };
        },
      };
    },
    interactions: { policy: signInPolicy(), url: (_ctx, interaction) => `${IDP_MOUNT}/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        // Signing out straight away only when the request holds this session's own ID token, which
        // no other site has: a bare GET /idp/session/end from elsewhere gets a question instead.
        logoutSource: async (ctx, form) => {
          const hint = ctx.oidc.entities.IdTokenHint as { payload?: { sub?: unknown } } | undefined;
          const accountId = ctx.oidc.session?.accountId;
          ctx.body = accountId && hint?.payload?.sub === accountId ? logoutPage(form) : logoutConfirmPage(form);
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => API_RESOURCE,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource) => {
          if (resource !== API_RESOURCE) throw new oidcErrors.InvalidTarget();
          return {
            scope: 'api',
            audience: BUILT_IN_AUDIENCE,
            accessTokenTTL: env.IDP_ACCESS_TOKEN_TTL,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    // First-party console: there is no consent screen, the grant is created on sign-in.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { oidc } = ctx;
      const grantId = oidc.result?.consent?.grantId || oidc.session!.grantIdFor(oidc.client!.clientId);
      const existing = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
      if (existing) return existing;
      const grant = new oidc.provider.Grant({ clientId: oidc.client!.clientId, accountId: oidc.session!.accountId! });
      grant.addOIDCScope('openid profile email offline_access');
      grant.addResourceScope(API_RESOURCE, 'api');
      await grant.save();
      return grant;
    },
    // The SPA is a public client that cannot hold a secret; refresh tokens rotate on every use.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: () => true,
    async extraTokenClaims(_ctx, token) {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const account = await accounts.findById(token.accountId);
      if (!account) return undefined;
      return {
        typ: 'Bearer',
        azp: clientId,
        // Keycloak's sid names the sign-in session; oidc-provider only sets its own sid for some clients.
        sid: (token as { sid?: string }).sid ?? (token as { sessionUid?: string }).sessionUid,
        preferred_username: account.email,
        name: account.name,
        email: account.email,
        realm_access: { roles: account.realmRoles },
        resource_access: { [clientId]: { roles: [] } },
      };
    },
    ttl: {
      AccessToken: env.IDP_ACCESS_TOKEN_TTL,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      Session: 14 * DAY,
      Grant: 14 * DAY,
      RefreshToken: 14 * DAY,
    },
    pkce: { required: () => true },
    // The SPA calls the token endpoint from the console's own origin, and only from there.
    clientBasedCORS: (_ctx, origin) => origin === env.PUBLIC_URL,
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = errorPage(String(out.error_description ?? out.error ?? 'Sign-in failed.'));
    },
  };

  const provider = new Provider(`${env.PUBLIC_URL}${IDP_MOUNT}`, configuration);
  // Honour X-Forwarded-Proto behind a TLS-terminating load balancer. app.ts rewrites the forwarded
  // headers to what fastify trusts (TRUST_PROXY) before they get here.
  provider.proxy = true;
  provider.use(compressProviderAnswers);
  provider.use(answerUnknownProviderPaths);
  return provider;
}

/**
 * oidc-provider's prompts, with one more reason to ask for the sign-in again: the provider's session
 * names an account that may not sign in now (disabled, deleted, or an ADMIN who must set up a second
 * factor first). Without it such a session would be handed a code its token request then refuses.
 */
function signInPolicy() {
  const { Check, base } = interactionPolicy;
  const policy = base();
  policy.get('login')!.checks.add(
    new Check('account_unavailable', 'The account may not sign in now', (ctx) =>
      ctx.oidc.session?.accountId && !ctx.oidc.account ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT,
    ),
  );
  return policy;
}
