import { apiErrorSchema } from '@fleetlink/contract';

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

/** Turns an error response body into an ApiRequestError, with the generic message when it has none. */
export function toApiRequestError(status: number, body: unknown): ApiRequestError {
  const parsed = apiErrorSchema.safeParse(body);
  if (parsed.success && parsed.data.message.trim()) {
    return new ApiRequestError(status, parsed.data.code, parsed.data.message, parsed.data.fields);
  }
  return new ApiRequestError(status, 'UNKNOWN', GENERIC_ERROR_MESSAGE);
}
