import type { Middleware } from 'koa';
import { compressAnswer, varyOnEncoding } from '../lib/http-compression.js';

function wholeBody(body: unknown): Buffer | string | undefined {
  if (typeof body === 'string') return body;
  if (Buffer.isBuffer(body)) return body;
  // Koa writes a plain object as JSON when it answers; streams are left alone.
  if (body && typeof body === 'object' && typeof (body as { pipe?: unknown }).pipe !== 'function') return Buffer.from(JSON.stringify(body));
  return undefined;
}

/**
 * The provider's own answers (discovery, keys, tokens, its error and logout pages) leave through its
 * Koa app, not through fastify's hooks: the same rule as registerCompression, applied there.
 */
export const compressProviderAnswers: Middleware = async (ctx, next) => {
  await next();
  const plan = compressAnswer({
    method: ctx.method,
    status: ctx.status,
    contentType: ctx.response.get('content-type'),
    contentEncoding: ctx.response.get('content-encoding') || undefined,
    acceptEncoding: ctx.get('accept-encoding'),
    body: wholeBody(ctx.body),
  });
  if (!plan) return;
  ctx.set('vary', varyOnEncoding(ctx.response.get('vary') || undefined));
  if (!plan.compressed) return;
  // Content-Type is already set, so Koa keeps it when the body becomes a Buffer.
  ctx.body = plan.compressed;
  ctx.set('content-encoding', plan.encoding!);
};
