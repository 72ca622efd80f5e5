import type { FastifyRequest } from 'fastify';

/** A URL with the value of every `token` parameter (blob URLs: single-use, but secrets while valid) left out. */
export const withoutTokens = (url: string) => url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]');

/** How a request appears in the log: Fastify's default fields, with no URL token in them. */
export function requestForLog(req: FastifyRequest) {
  return { method: req.method, url: withoutTokens(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}
