import { ErrorCode } from '@fleetlink/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasRole, type Principal } from '../auth/principal.js';
import { InvalidTokenError, type TokenVerifier } from '../auth/token-verifier.js';
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
  /** Called for every authenticated request, e.g. to record when a user was last seen. */
  onAuthenticated?: (principal: Principal) => Promise<void> | void;
}

/**
 * Every API route needs a valid bearer token unless it is declared public; routes declare the realm
 * roles they need in their config, and this one hook enforces both.
 */
export function registerAuth(app: FastifyInstance, opts: AuthOptions) {
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
      req.principal = { ...(await opts.verifier.verify(token)), clientAddress: req.ip };
    } catch (err) {
      const message = err instanceof InvalidTokenError ? err.message : 'The access token is not valid.';
      return reply.code(401).send(body(ErrorCode.Unauthenticated, message));
    }
    const missing = (config.roles ?? []).filter((r) => !hasRole(req.principal, r));
    if (missing.length) {
      return reply.code(403).send(body(ErrorCode.Forbidden, `You do not have the necessary authorization: role ${missing.join(', ')} is required.`));
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
