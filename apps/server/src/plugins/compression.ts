import type { FastifyInstance } from 'fastify';
import { compressAnswer, varyOnEncoding } from '../lib/http-compression.js';

/**
 * Compresses the console's own answers (the API's JSON, the provider's sign-in pages, error answers)
 * when the client asks. Streams pass untouched: the built web files are served pre-compressed by
 * @fastify/static, and downloads are files the user asked for as they are.
 */
export function registerCompression(app: FastifyInstance) {
  app.addHook('onSend', (req, reply, payload, done) => {
    const plan = compressAnswer({
      method: req.method,
      status: reply.statusCode,
      contentType: reply.getHeader('content-type'),
      contentEncoding: reply.getHeader('content-encoding'),
      acceptEncoding: req.headers['accept-encoding'],
      body: typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : undefined,
    });
    if (!plan) return done(null, payload);
    reply.header('vary', varyOnEncoding(reply.getHeader('vary')));
    if (!plan.compressed) return done(null, payload);
    reply.header('content-encoding', plan.encoding);
    reply.removeHeader('content-length');
    done(null, plan.compressed);
  });
}
