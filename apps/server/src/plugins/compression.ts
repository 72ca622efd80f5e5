import type { FastifyInstance } from 'fastify';
import { chooseEncoding, compressBody, COMPRESS_MIN_BYTES, isCompressibleType, varyOnEncoding } from '../lib/http-compression.js';

/**
 * Compresses the console's own answers (the API's JSON, the provider's sign-in pages, error answers)
 * when the client asks. Streams pass untouched: the built web files are served pre-compressed by
 * @fastify/static, and downloads are files the user asked for as they are.
 */
export function registerCompression(app: FastifyInstance) {
  // Callback style, answering at once for what is not compressed: a stream handed on a tick later (an
  // async hook) is not destroyed when its client goes away meanwhile, and holds the server's close.
  app.addHook('onSend', (req, reply, payload, done) => {
    const body = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : undefined;
    const skip =
      !body ||
      body.length < COMPRESS_MIN_BYTES ||
      req.method === 'HEAD' ||
      reply.statusCode === 204 ||
      reply.statusCode === 304 ||
      reply.hasHeader('content-encoding') ||
      !isCompressibleType(reply.getHeader('content-type'));
    if (skip) return done(null, payload);
    reply.header('vary', varyOnEncoding(reply.getHeader('vary')));
    const encoding = chooseEncoding(req.headers['accept-encoding']);
    if (!encoding) return done(null, payload);
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    done(null, compressBody(body, encoding));
  });
}
