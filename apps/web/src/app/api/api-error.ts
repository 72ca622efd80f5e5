import type { ApiError } from '@fleetlink/contract';

export const GENERIC_ERROR_MESSAGE = 'Something went wrong. Please try again.';

/** An HTTP error answered by the API; `code` is the stable error code of the contract. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

/**
 * The contract's `{ code, message, fields? }`, or nothing: an error may also come from something in
 * front of the console (a proxy's HTML page), so its shape is looked at, without loading zod for it.
 */
function apiErrorOf(body: unknown): ApiError | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { code, message, fields } = body as Record<string, unknown>;
  if (typeof code !== 'string' || typeof message !== 'string' || !message.trim()) return undefined;
  const named = typeof fields === 'object' && fields !== null && Object.values(fields).every((v) => typeof v === 'string');
  return { code, message, fields: named ? (fields as Record<string, string>) : undefined };
}

/** Turns an error response body into an ApiRequestError, with the generic message when it has none. */
export function toApiRequestError(status: number, body: unknown): ApiRequestError {
  const error = apiErrorOf(body);
  if (error) return new ApiRequestError(status, error.code, error.message, error.fields);
  return new ApiRequestError(status, 'UNKNOWN', GENERIC_ERROR_MESSAGE);
}
