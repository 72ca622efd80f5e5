import { z } from 'zod';

/** Stable error codes: clients branch on these, never on message text. */
export const ErrorCode = {
  BadRequest: 'BAD_REQUEST',
  Validation: 'VALIDATION_FAILED',
  Unauthenticated: 'UNAUTHENTICATED',
  Forbidden: 'FORBIDDEN',
  NotFound: 'NOT_FOUND',
  Conflict: 'CONFLICT',
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  /** The request's body came too slowly and the connection was closed. */
  RequestTimeout: 'REQUEST_TIMEOUT',
  RateLimited: 'RATE_LIMITED',
  Unavailable: 'UNAVAILABLE',
  /** The device is offline, went offline, or did not answer in time. */
  DeviceUnavailable: 'DEVICE_UNAVAILABLE',
  /** The device answered that it cannot do what was asked (an unknown command, a bad parameter). */
  DeviceRefused: 'DEVICE_REFUSED',
  /** A folder with contents was to be deleted without `recursive`: ask the person again. */
  FolderNotEmpty: 'FOLDER_NOT_EMPTY',
  Internal: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Every API error body: `{ code, message }`, plus per-field messages for validation failures. */
export const apiErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
