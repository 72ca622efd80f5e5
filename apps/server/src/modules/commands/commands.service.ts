import {
  AuditKind,
  commandOutputSchema,
  commandTimeoutSeconds,
  FILE_COMMAND,
  fileListingParametersSchema,
  fileListingSchema,
  RequestName,
  type CommandAnswer,
  type CommandForm,
  type CommandRequest,
} from '@fleetlink/contract';
import type { Principal } from '../../auth/principal.js';
import { badRequest, forbidden } from '../../lib/app-error.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { callDevice, deviceAnswer, type DeviceCallDeps } from '../broker/device-call.js';
import type { OrganizationPolicy } from '../organizations/organization.policy.js';
import { mayRunCommand, readsOnly } from './command-access.js';

/** What the answer needs on top of the command's own timeout: the way there and back, and the agent's kill. */
const ANSWER_GRACE_MS = 3_000;

/**
 * Runs a person's command on a device (SPEC §2 Command page, Storage page's listing, DESIGN §5):
 * checked here, sent as one `command` request over the device's message server, answered with what
 * it printed, or for `file` with the folder's listing.
 */
export class CommandsService {
  constructor(private readonly deps: DeviceCallDeps & { policy: OrganizationPolicy; audit: AuditTrail }) {}

  /** Recorded with its name, parameters and how it ended (exit code, signal, timeout); a listing is not. */
  run(p: Principal, deviceId: string, form: CommandForm): Promise<CommandAnswer> {
    if (readsOnly(form.name)) return this.runNow(p, deviceId, form);
    const details = { name: form.name, parameters: Object.fromEntries(form.parameters.map((row) => [row.name, row.value])) };
    return this.deps.audit.track(p, { kind: AuditKind.Command, deviceId, details }, () => this.runNow(p, deviceId, form), (output) => ({
      details:
        'exitCode' in output
          ? {
              exitCode: output.exitCode,
              ...(output.signal ? { signal: output.signal } : {}),
              ...(output.timedOut ? { timedOut: true } : {}),
              durationMs: output.durationMs,
            }
          : {},
    }));
  }

  private async runNow(p: Principal, deviceId: string, form: CommandForm): Promise<CommandAnswer> {
    if (!mayRunCommand(p, form.name)) throw forbidden(`Only administrators can run the command '${form.name}'.`);
    await this.deps.policy.readDevice(p, deviceId);
    const parameters = Object.fromEntries(form.parameters.map((row) => [row.name, row.value]));
    const timeout = commandTimeoutSeconds(parameters);
    if (typeof timeout !== 'number') throw badRequest(timeout.error, { timeout: timeout.error });
    const isListing = form.name === FILE_COMMAND;
    if (isListing) {
      const listing = fileListingParametersSchema.safeParse(parameters);
      if (!listing.success) throw badRequest(listing.error.issues[0]!.message);
    }

    const request: CommandRequest = { name: form.name, parameters };
    const result = await callDevice(this.deps, deviceId, RequestName.Command, request, { timeoutMs: timeout * 1000, graceMs: ANSWER_GRACE_MS }, COMMAND_TEXTS);
    return isListing ? deviceAnswer(fileListingSchema, result, 'a folder listing') : deviceAnswer(commandOutputSchema, result, 'a command result');
  }
}

const COMMAND_TEXTS = {
  offline: 'The device is offline: a command reaches it only while its agent is connected.',
  wentOffline: 'The device went offline while the command ran: its answer is lost.',
};
