import type { Middleware } from 'koa';
import { chooseEncoding, compressBody, COMPRESS_MIN_BYTES, isCompressibleType, varyOnEncoding } from '../lib/http-compression.js';

function bodyBytes(body: unknown): Buffer | undefined {
  if (typeof body === 'string') return Buffer.from(body);
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
  if (ctx.method === 'HEAD' || ctx.status === 204 || ctx.status === 304 || ctx.response.get('content-encoding')) return;
  if (!isCompressibleType(ctx.response.get('content-type'))) return;
  const body = bodyBytes(ctx.body);
  if (!body || body.length < COMPRESS_MIN_BYTES) return;
  ctx.set('vary', varyOnEncoding(ctx.response.get('vary') || undefined));
  const encoding = chooseEncoding(ctx.get('accept-encoding'));
  if (!encoding) return;
  // Content-Type is already set, so Koa keeps it when the body becomes a Buffer.
  ctx.body = compressBody(body, encoding);
  ctx.set('content-encoding', encoding);
};
