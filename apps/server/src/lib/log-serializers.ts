import { DrizzleQueryError } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import pino from 'pino';
import { redactUrl } from '@fleetlink/contract/log-redaction';

export interface RequestLogFields {
  method: string;
  url: string;
  host: string;
  remoteAddress: string;
  remotePort: number | undefined;
}

/**
 * How a request appears in the log: Fastify's default fields, with no token, code or key of its URL
 * in them. Given those fields already (a line that wrote them itself), it keeps them.
 */
export function requestForLog(req: FastifyRequest | RequestLogFields): RequestLogFields {
  if (!('raw' in req)) return req;
  return { method: req.method, url: redactUrl(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}

/** Where database errors carry a query's values: drizzle's message, PGlite's and postgres.js' own fields. */
const PARAMETER_FIELDS = ['params', 'parameters', 'queryOptions'];

/**
 * A database error without the values its query was given (a server's password, an installation
 * key, a token hash): drizzle writes them into its message and stack, PGlite onto the error itself.
 */
function withoutQueryValues(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const cause = withoutQueryValues(err.cause);
  const carriesValues = err instanceof DrizzleQueryError || PARAMETER_FIELDS.some((f) => f in err);
  if (!carriesValues && cause === err.cause) return err;
  const message = err instanceof DrizzleQueryError ? `Failed query: ${err.query}` : err.message;
  const copy = Object.assign(Object.create(Object.getPrototypeOf(err) as object), err) as Error & Record<string, unknown>;
  for (const field of PARAMETER_FIELDS) delete copy[field];
  Object.defineProperties(copy, {
    message: { value: message, enumerable: false },
    stack: { value: err.stack?.replace(err.message, message), enumerable: false },
    cause: { value: cause, enumerable: false },
  });
  return copy;
}

/** How an error appears in the log: pino's own shape, without the values of a failed query. */
export const errorForLog = (err: Error) => pino.stdSerializers.err(withoutQueryValues(err) as Error);
