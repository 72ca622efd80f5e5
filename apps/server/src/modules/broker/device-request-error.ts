import { ErrorCode } from '@fleetlink/contract';
import { AppError } from '../../lib/app-error.js';

/**
 * Why a request to a device got no result. `lost`: the console's connection to the device's message
 * server dropped (a broker restart) before the answer came, so it cannot come (issue 67).
 */
export type DeviceRequestFailure = 'refused' | 'timeout' | 'offline' | 'lost';

export const CONNECTION_LOST_MESSAGE = "The console's connection to the device's message server was lost before the device answered: try again in a moment.";

/**
 * A request to a device that ended without a result. Callers that face a person (the command
 * route) turn `failure` into their own answer; the others pass it on as it is.
 */
export class DeviceRequestError extends AppError {
  constructor(
    readonly failure: DeviceRequestFailure,
    message: string,
    /** The device's own words, when it refused. */
    readonly deviceMessage?: string,
    /** The device's reason code (ReplyCode), when it gave one. */
    readonly deviceCode?: string,
  ) {
    super(failure === 'refused' ? 502 : failure === 'timeout' ? 504 : 503, ErrorCode.Unavailable, message);
  }
}

/**
 * A request that never left the console: the device's message server is not reachable, or the
 * publish failed. Nothing ran on the device, so it may be sent again later (a fleet job waits and
 * does, issue 67); a person is told at once.
 */
export class RequestNotSent extends AppError {
  constructor(message: string) {
    super(503, ErrorCode.Unavailable, message);
  }
}
