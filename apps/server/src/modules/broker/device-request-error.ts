import { ErrorCode } from '@fleetlink/contract';
import { AppError } from '../../lib/app-error.js';

/** Why a request to a device got no result. */
export type DeviceRequestFailure = 'refused' | 'timeout' | 'offline';

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
