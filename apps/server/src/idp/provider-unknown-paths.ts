import type { Middleware } from 'koa';

/**
 * oidc-provider 9 has no catch-all 404 of its own any more: a path under /idp it has no route for
 * (or a method a route does not take) would leave with Koa's bare "Not Found" text. It gets the
 * provider's JSON error, as oidc-provider 8 answered it, so no client takes a page for an answer.
 */
export const answerUnknownProviderPaths: Middleware = async (ctx, next) => {
  await next();
  if (ctx.status !== 404 || ctx.body !== undefined) return;
  ctx.body = { error: 'invalid_request', error_description: `unrecognized route or not allowed method (${ctx.method} on ${ctx.path})` };
  ctx.status = 404; // after the body: setting a body otherwise makes it 200
};
