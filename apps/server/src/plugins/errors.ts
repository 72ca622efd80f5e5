import { ErrorCode, type ApiError } from '@fleetlink/contract';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/app-error.js';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from './database-unavailable.js';

const codeForStatus: Record<number, ErrorCode> = {
  400: ErrorCode.BadRequest,
  401: ErrorCode.Unauthenticated,
  403: ErrorCode.Forbidden,
  404: ErrorCode.NotFound,
  409: ErrorCode.Conflict,
  413: ErrorCode.PayloadTooLarge,
  415: ErrorCode.BadRequest,
  429: ErrorCode.RateLimited,
};

/** Friendlier words for fastify's own client errors, which otherwise leak internals. */
const messageForFastifyCode: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty but JSON was declared.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the body as JSON (Content-Type: application/json), or as multipart/form-data for a file upload.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'Send the file as multipart/form-data.',
  FST_PARTS_LIMIT: 'Send one file and its folder, nothing more.',
  FST_FILES_LIMIT: 'Send one file at a time.',
  FST_FIELDS_LIMIT: 'Send one file and its folder, nothing more.',
};

/**
 * What the multipart parser (busboy) throws for a body that is not the form it says it is: no
 * boundary, a part cut off, a header it cannot read. The sender's mistake, so a 400 in plain words.
 */
const MALFORMED_MULTIPART: [RegExp, string][] = [
  [/^Multipart: Boundary not found/, 'The form has no boundary: send it as multipart/form-data with its boundary (a browser or curl -F does).'],
  [/unexpected end of multipart data|^Unexpected end of form/i, 'The form ended before its closing boundary: the upload broke off or was cut short. Send it again.'],
  [/^Malformed part header|^Unsupported Content-Type/, 'The form is not valid multipart/form-data: send the file as a browser or curl -F does.'],
];
const malformedMultipartMessage = (err: unknown): string | undefined =>
  err instanceof Error && !(err instanceof AppError) ? MALFORMED_MULTIPART.find(([pattern]) => pattern.test(err.message))?.[1] : undefined;

/** Every error leaves the API as `{ code, message }` JSON: 4xx for the caller's mistakes, never a stack. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      return reply.code(err.statusCode).send(body(err.code, err.message, err.fields));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const issue of err.validation) {
        const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || err.validationContext || 'request';
        fields[key] ??= issue.message ?? 'This value is not valid.';
      }
      const first: string = Object.values(fields)[0] ?? 'The request is not valid.';
      return reply.code(400).send(body(ErrorCode.Validation, first, fields));
    }
    const malformed = malformedMultipartMessage(err);
    if (malformed) return reply.code(400).send(body(ErrorCode.BadRequest, malformed));
    // @fastify/multipart says 406 (Not Acceptable, which is about the answer) for a body that is not
    // multipart: the request's own type is what is wrong, 415 as for any other body of the wrong type.
    const status = err.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' ? 415 : (err.statusCode ?? 500);
    if (status >= 400 && status < 500) {
      const message = messageForFastifyCode[err.code] ?? err.message;
      return reply.code(status).send(body(codeForStatus[status] ?? ErrorCode.BadRequest, message));
    }
    if (isDatabaseUnavailable(err)) {
      req.log.warn({ err: err.message }, 'answered 503: the database is not reachable');
      return reply.code(503).header('retry-after', '5').send(body(ErrorCode.Unavailable, DATABASE_UNAVAILABLE_MESSAGE));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(status >= 500 ? status : 500).send(body(ErrorCode.Internal, 'Something went wrong on our side. Please try again.'));
  });
}

export function body(code: string, message: string, fields?: Record<string, string>): ApiError {
  return fields && Object.keys(fields).length ? { code, message, fields } : { code, message };
}

/**
 * Runs a handler that reads a request body: when the slow-request cut answered 408 and ended the
 * body meanwhile, the handler's failure is that cut's consequence, already answered, not an error
 * to log (Fastify would log it as one: "Promise errored, but reply.sent = true was set").
 */
export async function unlessCut<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T | FastifyReply> {
  try {
    return await work();
  } catch (err) {
    if (reply.raw.headersSent) return reply;
    throw err;
  }
}
