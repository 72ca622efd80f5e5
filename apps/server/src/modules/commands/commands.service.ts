import { AuditKind, commandOutputSchema, commandTimeoutSeconds, ErrorCode, RequestName, type CommandForm, type CommandOutput, type CommandRequest } from '@fleetlink/contract';
import type { Principal } from '../../auth/principal.js';
import { AppError, badRequest, forbidden, notFound } from '../../lib/app-error.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { DeviceRequestError } from '../broker/device-request-error.js';
import type { MessageHub } from '../broker/message-hub.js';
import type { DevicesRepository } from '../devices/devices.repository.js';
import type { OrganizationPolicy } from '../organizations/organization.policy.js';
import { mayRunCommand } from './command-access.js';

/** What the answer needs on top of the command's own timeout: the way there and back, and the agent's kill. */
const ANSWER_GRACE_MS = 3_000;

/**
 * Runs a person's command on a device (SPEC §2 Command page, DESIGN §5): checked here, sent as one
 * `command` request over the device's message server, answered with what it printed. Every way it
 * can fail is a 4xx that says what happened: offline before, offline during, silent past its
 * deadline, or refused by the agent.
 */
export class CommandsService {
  constructor(
    private readonly deps: {
      policy: OrganizationPolicy;
      devices: Pick<DevicesRepository, 'isOnline'>;
      hub: Pick<MessageHub, 'request'>;
      audit: AuditTrail;
    },
  ) {}

  /** Recorded with its name, parameters and how it ended (exit code, signal, timeout). */
  run(p: Principal, deviceId: string, form: CommandForm): Promise<CommandOutput> {
    const details = { name: form.name, parameters: Object.fromEntries(form.parameters.map((row) => [row.name, row.value])) };
    return this.deps.audit.track(p, { kind: AuditKind.Command, deviceId, details }, () => this.runNow(p, deviceId, form), (output) => ({
      details: {
        exitCode: output.exitCode,
        ...(output.signal ? { signal: output.signal } : {}),
        ...(output.timedOut ? { timedOut: true } : {}),
        durationMs: output.durationMs,
      },
    }));
  }

  private async runNow(p: Principal, deviceId: string, form: CommandForm): Promise<CommandOutput> {
    if (!mayRunCommand(p, form.name)) throw forbidden(`Only administrators can run the command '${form.name}'.`);
    await this.deps.policy.readDevice(p, deviceId);
    const parameters = Object.fromEntries(form.parameters.map((row) => [row.name, row.value]));
    const timeout = commandTimeoutSeconds(parameters);
    if (typeof timeout !== 'number') throw badRequest(timeout.error, { timeout: timeout.error });

    const online = await this.deps.devices.isOnline(deviceId);
    if (online === undefined) throw notFound('Device not found.');
    if (!online) throw unavailable('The device is offline: a command reaches it only while its agent is connected.');

    const request: CommandRequest = { name: form.name, parameters };
    let result: unknown;
    try {
      result = await this.deps.hub.request(deviceId, RequestName.Command, request, { timeoutMs: timeout * 1000 + ANSWER_GRACE_MS });
    } catch (err) {
      throw asCommandError(err, timeout);
    }
    const output = commandOutputSchema.safeParse(result);
    if (!output.success) throw new AppError(502, ErrorCode.Unavailable, 'The device answered with something that is not a command result.');
    return output.data;
  }
}

const unavailable = (message: string) => new AppError(409, ErrorCode.DeviceUnavailable, message);

/** A failed request as the person who sent the command reads it. */
function asCommandError(err: unknown, timeoutSeconds: number): unknown {
  if (!(err instanceof DeviceRequestError)) return err;
  switch (err.failure) {
    case 'refused':
      return new AppError(422, ErrorCode.DeviceRefused, err.deviceMessage ?? err.message);
    case 'offline':
      return unavailable('The device went offline while the command ran: its answer is lost.');
    case 'timeout':
      return unavailable(`The device did not answer within ${timeoutSeconds} second${timeoutSeconds === 1 ? '' : 's'}: it may have lost its connection.`);
  }
}
