import { AuditKind } from '@fleetlink/contract';
import { AppError } from '../../lib/app-error.js';
import type { AuditInsert, AuditNames, AuditRepository } from './audit.repository.js';

/** Who acted: a signed-in user (a Principal is one), what was typed at a failed sign-in, or a device's agent (no username). */
export interface Actor {
  username: string | null;
  subject: string | null;
  clientAddress?: string | null;
  /** The personal API token a person acted through: its name goes into the entry's details. */
  apiToken?: { name: string };
}

/** What is about to happen, to which device or organization. Details never hold a secret. */
export interface AuditAction {
  kind: AuditKind;
  deviceId?: string;
  organizationId?: string;
  details?: Record<string, unknown>;
}

/** What only the result tells: the id of what was created, and fields like a command's exit code. */
export type AuditResult = Omit<AuditAction, 'kind'>;

/** What a delete removes along with the names an entry needs: those are read before it runs. */
const DELETES: ReadonlySet<AuditKind> = new Set([AuditKind.DeviceDelete, AuditKind.OrganizationDelete]);

type ErrorLog = { error(obj: object, msg: string): void };

/** Told of every action that succeeded, with the organization it concerned (live updates follow them). */
export type AfterAction = (action: AuditAction, actor: Actor) => void;

/**
 * The one way services write the audit trail (DESIGN §5: services, never routes). `track` wraps an
 * action so that it leaves exactly one entry whichever way it ends; the entry keeps the names the
 * device and organization had, so it still reads right after both are gone. Costs the action one
 * statement (two for a delete).
 */
export class AuditTrail {
  constructor(
    private readonly repo: AuditRepository,
    private readonly log: ErrorLog,
    private readonly after?: AfterAction,
  ) {}

  async track<T>(actor: Actor, action: AuditAction, work: () => Promise<T>, describe?: (result: T) => AuditResult): Promise<T> {
    // A delete's names are read before it runs (nothing is left to read afterwards); every other
    // entry names the device and organization as they are when it is written (an edit's new name,
    // a create's new id).
    const before = DELETES.has(action.kind) ? await this.namesOf(action) : {};
    let result: T;
    try {
      result = await work();
    } catch (err) {
      await this.write(actor, action, {}, { outcome: 'error', error: messageOf(err) });
      throw err;
    }
    const extra = describe?.(result) ?? {};
    await this.write(actor, { ...action, ...extra, details: { ...action.details, ...extra.details } }, before, { outcome: 'ok', error: null });
    return result;
  }

  /** An entry for something that already happened (a sign-in at the provider, an enrollment). */
  async record(actor: Actor, action: AuditAction, outcome: { error: string | null }): Promise<void> {
    await this.write(actor, action, {}, { outcome: outcome.error ? 'error' : 'ok', error: outcome.error });
  }

  private async namesOf(action: AuditAction): Promise<AuditNames> {
    try {
      if (action.deviceId) return await this.repo.deviceNames(action.deviceId);
      if (action.organizationId) return await this.repo.organizationNames(action.organizationId);
    } catch (err) {
      this.log.error({ err, kind: action.kind }, 'audit trail: could not look up the names of an entry');
    }
    return {};
  }

  private async write(actor: Actor, action: AuditAction, names: AuditNames, outcome: Pick<AuditInsert, 'outcome' | 'error'>) {
    const entry: AuditInsert = {
      time: new Date(),
      username: actor.username,
      subject: actor.subject,
      clientAddress: actor.clientAddress ?? null,
      kind: action.kind,
      deviceId: action.deviceId ?? null,
      organizationId: names.organizationId ?? action.organizationId ?? null,
      deviceName: names.deviceName,
      organizationName: names.organizationName,
      // What a script did with a person's token reads as theirs, and says through which token.
      details: actor.apiToken ? { apiToken: actor.apiToken.name, ...action.details } : (action.details ?? {}),
      ...outcome,
    };
    if (outcome.outcome === 'ok') this.after?.({ ...action, organizationId: entry.organizationId ?? undefined }, actor);
    try {
      await this.repo.append(entry);
    } catch (err) {
      // The action itself is done (or failed on its own); losing its entry is logged loudly, not undone.
      this.log.error({ err, kind: entry.kind, deviceId: entry.deviceId, organizationId: entry.organizationId }, 'audit trail: entry not written');
    }
  }
}

/** The message the person saw; anything that is not a person's error stays generic (it may hold SQL). */
function messageOf(err: unknown): string {
  if (err instanceof AppError) return err.message;
  return 'The console could not complete this action (an internal error).';
}
