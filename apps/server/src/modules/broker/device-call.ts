import { ErrorCode, ReplyCode } from '@fleetlink/contract';
import { AppError } from '../../lib/app-error.js';
import type { DevicesRepository } from '../devices/devices.repository.js';
import { DeviceRequestError } from './device-request-error.js';
import type { MessageHub } from './message-hub.js';

/** What a person reads when the device cannot be reached, in the words of what they were doing. */
export interface DeviceCallTexts {
  /** The device is offline before anything is sent. */
  offline: string;
  /** It went offline before it answered. */
  wentOffline: string;
}

export interface DeviceCallDeps {
  devices: Pick<DevicesRepository, 'isOnline'>;
  hub: Pick<MessageHub, 'request'>;
}

/**
 * One request a person's action sends to a device (a command, a file change): only to an online
 * device, and every way it can fail is a 4xx that says what happened: offline before, offline
 * during, silent past its deadline, or refused by the agent (with the agent's words, and the status
 * its reason calls for).
 */
export async function callDevice(
  deps: DeviceCallDeps,
  deviceId: string,
  name: string,
  parameters: Record<string, unknown>,
  /** How long the person is told the device had, and what the answer's way back adds to it. */
  wait: { timeoutMs: number; graceMs?: number },
  texts: DeviceCallTexts,
): Promise<unknown> {
  const online = await deps.devices.isOnline(deviceId);
  if (online === undefined) throw new AppError(404, ErrorCode.NotFound, 'Device not found.');
  if (!online) throw deviceUnavailable(texts.offline);
  try {
    return await deps.hub.request(deviceId, name, parameters, { timeoutMs: wait.timeoutMs + (wait.graceMs ?? 0) });
  } catch (err) {
    throw asPersonError(err, wait.timeoutMs, texts);
  }
}

/** The device's answer as the contract has it, or a 502 that says what was expected ('a file change'). */
export function deviceAnswer<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }, answer: unknown, what: string): T {
  const parsed = schema.safeParse(answer);
  if (!parsed.success) throw new AppError(502, ErrorCode.Unavailable, `The device answered with something that is not ${what}.`);
  return parsed.data;
}

export const deviceUnavailable = (message: string) => new AppError(409, ErrorCode.DeviceUnavailable, message);

/** The status a refusal gets from its reason: the agent's words go through as they are. */
const REFUSALS: Record<string, [number, ErrorCode]> = {
  [ReplyCode.FolderNotEmpty]: [409, ErrorCode.FolderNotEmpty],
  [ReplyCode.Exists]: [409, ErrorCode.Conflict],
  [ReplyCode.NotFound]: [404, ErrorCode.NotFound],
};

function asPersonError(err: unknown, timeoutMs: number, texts: DeviceCallTexts): unknown {
  if (!(err instanceof DeviceRequestError)) return err;
  switch (err.failure) {
    case 'refused': {
      const [status, code] = REFUSALS[err.deviceCode ?? ''] ?? [422, ErrorCode.DeviceRefused];
      return new AppError(status, code, err.deviceMessage ?? err.message);
    }
    case 'offline':
      return deviceUnavailable(texts.wentOffline);
    case 'lost':
      return new AppError(503, ErrorCode.Unavailable, err.message);
    case 'timeout': {
      const seconds = Math.round(timeoutMs / 1000);
      return deviceUnavailable(`The device did not answer within ${seconds} second${seconds === 1 ? '' : 's'}: it may have lost its connection.`);
    }
  }
}
