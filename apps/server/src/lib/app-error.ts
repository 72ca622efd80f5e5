import { ErrorCode } from '@fleetlink/contract';

/** An error a person can cause: carries the HTTP status and the message they will read. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (message: string) => new AppError(404, ErrorCode.NotFound, message);
export const forbidden = (message: string) => new AppError(403, ErrorCode.Forbidden, message);
export const conflict = (message: string) => new AppError(409, ErrorCode.Conflict, message);
export const badRequest = (message: string, fields?: Record<string, string>) =>
  new AppError(400, ErrorCode.Validation, message, fields);
