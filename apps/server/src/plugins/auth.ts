import { ErrorCode } from '@fleetlink/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasRole, type Principal } from '../auth/principal.js';
import { InvalidTokenError, type TokenVerifier } from '../auth/token-verifier.js';
import { isApiTokenSecret, type ApiTokenAuth } from '../modules/api-tokens/api-token-auth.js';
import { body } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** Served without a token (health, SPA configuration). */
    public?: boolean;
    /**
     * Realm roles the caller must all hold (SPEC §6); `[]` for routes open to every signed-in user.
     * Every route that is not public must say, or the console does not start.
     */
    roles?: readonly string[];
  }
}

interface AuthOptions {
  verifier: TokenVerifier;
  /** Personal API tokens (`flt_…`), beside the provider's access tokens. */
  apiTokens?: ApiTokenAuth;
  /**
   * With the built-in provider: whether its account may still act. A token outlives a disable or a
   * delete until it expires; this stops it at once (issue 72).
   */
  standing?: { isActive(accountId: string): Promise<boolean> };
  /** Called for every request authenticated by a sign-in (not an API token), e.g. to record when a user was last seen. */
  onAuthenticated?: (principal: Principal) => Promise<void> | void;
}

/**
 * The caller of a bearer token: a personal API token's owner, or the person an access token was
 * issued to. The live socket authenticates with the same function.
 */
export function bearerAuthenticator(opts: Pick<AuthOptions, 'verifier' | 'apiTokens' | 'standing'>) {
  return async (token: string, address: string): Promise<Principal> => {
    const principal =
      opts.apiTokens && isApiTokenSecret(token) ? await opts.apiTokens.authenticate(token, address) : { ...(await opts.verifier.verify(token)), clientAddress: address };
    if (opts.standing) {
      const active = await opts.standing.isActive(principal.subject).catch((err: unknown) => {
        throw new AccountUncheckedError('the account could not be checked', { cause: err });
      });
      if (!active) throw new InvalidTokenError(ACCOUNT_GONE);
    }
    return principal;
  };
}

/** The database did not answer whether the account may act: not the token's fault, so not a 401 (the page would sign out). */
class AccountUncheckedError extends Error {}

export const ACCOUNT_GONE = 'Your account was disabled or deleted: ask your Fleetlink administrator.';

/**
 * Every API route needs a valid bearer token unless it is declared public; routes declare the realm
 * roles they need in their config, and this one hook enforces both.
 */
export function registerAuth(app: FastifyInstance, opts: AuthOptions) {
  const authenticate = bearerAuthenticator(opts);
  app.decorateRequest('principal', null as unknown as Principal);
  // A route that forgot its roles would be open to any signed-in account, a guest included.
  app.addHook('onRoute', (route) => {
    if (!route.config?.public && !route.config?.roles) {
      throw new Error(`${route.method} ${route.url} declares neither the realm roles it needs (config.roles) nor config.public.`);
    }
  });
  app.addHook('onRequest', async (req, reply) => {
    const config = req.routeOptions.config;
    // Unknown routes fall through to the 404 handler; a token is not what is missing there.
    if (config.public || !req.routeOptions.url) return;
    const token = bearerToken(req);
    if (!token) return reply.code(401).send(body(ErrorCode.Unauthenticated, 'Sign in to use this API: the bearer token is missing.'));
    try {
      req.principal = await authenticate(token, req.ip);
    } catch (err) {
      if (err instanceof InvalidTokenError) return reply.code(401).send(body(ErrorCode.Unauthenticated, err.message));
      // An API token and an account's standing are looked up in the database: when that fails, the token is not what is wrong.
      if (isApiTokenSecret(token) || err instanceof AccountUncheckedError) {
        const what = isApiTokenSecret(token) ? 'Your API token' : 'Your account';
        req.log.error({ err }, `${what} could not be checked`);
        return reply.code(503).send(body(ErrorCode.Unavailable, `${what} could not be checked right now: try again in a moment.`));
      }
      return reply.code(401).send(body(ErrorCode.Unauthenticated, 'The access token is not valid.'));
    }
    const roles = config.roles ?? [];
    const missing = roles.filter((r) => !hasRole(req.principal, r));
    if (missing.length) {
      return reply.code(403).send(body(ErrorCode.Forbidden, `You do not have the necessary authorization: role ${missing.join(', ')} is required.`));
    }
    if (req.principal.apiToken) {
      const refusal = await opts.apiTokens!.refusal(req.principal, req.method, roles);
      if (refusal?.retryAfterSeconds) reply.header('retry-after', refusal.retryAfterSeconds);
      if (refusal) return reply.code(refusal.status).send(body(refusal.status === 429 ? ErrorCode.RateLimited : ErrorCode.Forbidden, refusal.message));
      return;
    }
    await opts.onAuthenticated?.(req.principal);
  });
}

function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value : undefined;
}
