import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's headers, worked out once. @fastify/helmet builds `helmet(options)` again on every request
 * (its CSP directives parsed and joined each time, in two hooks): 8 % of a device answer's CPU.
 * With options that hold no functions, helmet's answer does not depend on the request, so it is
 * asked once here against a response that only records, and each request gets the recorded headers.
 */
export function securityHeadersOf(options: HelmetOptions): ReadonlyArray<readonly [string, string]> {
  const csp = options.contentSecurityPolicy;
  for (const [name, value] of Object.entries((typeof csp === 'object' && csp.directives) || {})) {
    if (typeof value === 'function' || (Array.isArray(value) && value.some((v) => typeof v === 'function'))) {
      throw new Error(`security headers: the CSP directive ${name} depends on the request; it cannot be worked out once`);
    }
  }
  const headers: Array<[string, string]> = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value)]);
      return recorder;
    },
    // helmet removes X-Powered-By, which neither Node nor fastify sends.
    removeHeader() {},
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

/**
 * Sends helmet's headers on every answer, on the raw response so the built-in provider's hijacked
 * answers carry them too.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions) {
  const headers = securityHeadersOf(options);
  app.addHook('onRequest', (_req, reply, done) => {
    const res = reply.raw;
    for (const [name, value] of headers) res.setHeader(name, value);
    done();
  });
}
