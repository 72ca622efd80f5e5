import type { FastifyInstance } from 'fastify';
import { chooseEncoding, compressBody, COMPRESS_MIN_BYTES, isCompressibleType, varyOnEncoding } from '../lib/http-compression.js';

/**
 * Compresses the console's own answers (the API's JSON, the provider's sign-in pages, error answers)
 * when the client asks. Streams pass untouched: the built web files are served pre-compressed by
 * @fastify/static, and downloads are files the user asked for as they are.
 */
export function registerCompression(app: FastifyInstance) {
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.method === 'HEAD' || reply.statusCode === 204 || reply.statusCode === 304) return payload;
    if (reply.hasHeader('content-encoding') || !isCompressibleType(reply.getHeader('content-type'))) return payload;
    const body = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : undefined;
    if (!body || body.length < COMPRESS_MIN_BYTES) return payload;
    reply.header('vary', varyOnEncoding(reply.getHeader('vary')));
    const encoding = chooseEncoding(req.headers['accept-encoding']);
    if (!encoding) return payload;
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return compressBody(body, encoding);
  });
}
