import {
  AuditKind,
  ErrorCode,
  MONITORS_PER_DEVICE_MAX,
  monitorsSetReplySchema,
  RequestName,
  type Monitor,
  type MonitorForm,
} from '@fleetlink/contract';
import { inBatches } from '@fleetlink/contract/in-batches';
import type { Principal } from '../../auth/principal.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { fieldChanges } from '../audit/field-changes.js';
import type { HubLog } from '../broker/hub-connection.js';
import type { MessageHub } from '../broker/message-hub.js';
import type { DevicesRepository } from '../devices/devices.repository.js';
import type { OrganizationPolicy } from '../organizations/organization.policy.js';
import { isUniqueViolation } from '../organizations/unique-violation.js';
import { toMonitor, type MonitorRecord, type MonitorsRepository } from './monitors.repository.js';

/**
 * How long a change waits for the agent's first reading, so the answer can show it. A folder's
 * size is counted for a few seconds at most (agent: monitors/read-monitor.ts); past this the
 * reading comes with the next report instead, and the change stands either way.
 */
const FIRST_READING_TIMEOUT_MS = 10_000;
/** Devices that came online together are sent their lists this many at a time. */
const SEND_AT_ONCE = 16;

/** What a monitor edit can change, as the audit trail compares it. */
const EDITABLE = ['name', 'type', 'path'] as const;

const TEXTS = {
  notFound: 'Monitor not found.',
  tooMany: `A device can have at most ${MONITORS_PER_DEVICE_MAX} monitors.`,
  taken: (name: string) => `A monitor named '${name}' exists already on this device.`,
};

export interface MonitorsDeps {
  repo: MonitorsRepository;
  devices: Pick<DevicesRepository, 'isOnline'>;
  hub: Pick<MessageHub, 'request'>;
  policy: OrganizationPolicy;
  audit: AuditTrail;
  log: HubLog;
}

/**
 * Monitors (SPEC §2, §3; issue 28): members read them, CREATOR and ADMIN change them, every change
 * is in the audit trail. The console is the one source of the list: it sends the whole list to the
 * agent after each change and each time the device comes online; the agent reads every monitor then
 * and at each heartbeat, and reports readings that changed with its properties.
 */
export class MonitorsService {
  constructor(private readonly deps: MonitorsDeps) {}

  async get(p: Principal, deviceId: string, id: string): Promise<Monitor> {
    await this.deps.policy.readDevice(p, deviceId);
    return this.found(deviceId, id);
  }

  create(p: Principal, deviceId: string, form: MonitorForm): Promise<Monitor> {
    const action = { kind: AuditKind.MonitorCreate, deviceId, details: { ...form } };
    return this.deps.audit.track(
      p,
      action,
      async () => {
        await this.deps.policy.writeDevice(p, deviceId);
        if ((await this.deps.repo.countOf(deviceId)) >= MONITORS_PER_DEVICE_MAX) throw new AppError(409, ErrorCode.Conflict, TEXTS.tooMany);
        const row = await this.deps.repo.insert(deviceId, form).catch(this.nameTaken(form.name));
        return this.afterChange(deviceId, row.id);
      },
      (monitor) => ({ details: { id: monitor.id } }),
    );
  }

  async update(p: Principal, deviceId: string, id: string, form: MonitorForm): Promise<Monitor> {
    const before = await this.deps.repo.find(deviceId, id);
    const details = before ? { id, name: form.name, changes: fieldChanges(before, form, EDITABLE) } : { id, ...form };
    const action = { kind: AuditKind.MonitorUpdate, deviceId, details };
    return this.deps.audit.track(p, action, async () => {
      await this.deps.policy.writeDevice(p, deviceId);
      const row = await this.deps.repo.update(deviceId, id, form).catch(this.nameTaken(form.name));
      if (!row) throw notFound(TEXTS.notFound);
      return this.afterChange(deviceId, id);
    });
  }

  async remove(p: Principal, deviceId: string, id: string): Promise<void> {
    const action = { kind: AuditKind.MonitorDelete, deviceId, details: { id } };
    const describe = (removed: MonitorRecord) => ({ details: { name: removed.name, type: removed.type, path: removed.path } });
    await this.deps.audit.track(
      p,
      action,
      async () => {
        await this.deps.policy.writeDevice(p, deviceId);
        const removed = await this.deps.repo.delete(deviceId, id);
        if (!removed) throw notFound(TEXTS.notFound);
        // The answer does not wait for the device: nothing of a removed monitor is shown.
        void this.sendList(deviceId);
        return removed;
      },
      describe,
    );
  }

  /**
   * Sends the device its monitors and records what it reads there; false when it did not (the
   * device is offline, or did not answer in time: it gets the list when it next comes online).
   * Never throws: the monitors are saved whatever the device does.
   */
  async sendList(deviceId: string): Promise<boolean> {
    try {
      if (!(await this.deps.devices.isOnline(deviceId))) return false;
      const list = await this.deps.repo.listForAgent(deviceId);
      const answer = await this.deps.hub.request(deviceId, RequestName.SetMonitors, list, { timeoutMs: FIRST_READING_TIMEOUT_MS });
      const reply = monitorsSetReplySchema.safeParse(answer);
      if (!reply.success) throw new Error('the answer is not a list of readings');
      await this.deps.repo.recordReadings(deviceId, reply.data.readings, new Date());
      return true;
    } catch (err) {
      this.deps.log.debug({ deviceId, err: (err as Error).message }, 'monitors not sent to the device');
      return false;
    }
  }

  /**
   * Devices that came online: those with monitors are sent their list (an agent starts each
   * connection with none). Which have any is one statement for them all, so a fleet that
   * reconnects at once costs nothing a device without monitors. Never throws.
   */
  async sendListsTo(deviceIds: string[]): Promise<void> {
    const withMonitors = await this.deps.repo.withMonitors(deviceIds).catch((err: Error) => {
      this.deps.log.warn({ devices: deviceIds.length, err: err.message }, 'monitors not sent to devices that came online');
      return [];
    });
    await inBatches(withMonitors, SEND_AT_ONCE, (id) => this.sendList(id));
  }

  private async afterChange(deviceId: string, id: string): Promise<Monitor> {
    await this.sendList(deviceId);
    return this.found(deviceId, id);
  }

  private async found(deviceId: string, id: string): Promise<Monitor> {
    const row = await this.deps.repo.find(deviceId, id);
    if (!row) throw notFound(TEXTS.notFound);
    return toMonitor(row);
  }

  /** The unique (device, name) index has the last word when two people pick one name at once. */
  private nameTaken(name: string) {
    return (err: unknown): never => {
      if (isUniqueViolation(err)) throw new AppError(409, ErrorCode.Conflict, TEXTS.taken(name), { name: TEXTS.taken(name) });
      throw err;
    };
  }
}
