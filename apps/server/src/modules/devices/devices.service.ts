import { randomBytes } from 'node:crypto';
import { AuditKind, monitorPropertyKey, type Device, type DeviceForm, type DeviceListItem, type DeviceSearchQuery, type DeviceSearchResult, type DeviceStatus, type DeviceStatusQuery, type Monitor } from '@fleetlink/contract';
import type { Principal } from '../../auth/principal.js';
import { notFound } from '../../lib/app-error.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { DeviceAccounts } from '../broker/device-accounts.js';
import { fieldChanges } from '../audit/field-changes.js';
import { canManage, canRead, MANAGING_ROLES, type OrganizationPolicy } from '../organizations/organization.policy.js';
import { scanDetails } from '../files/drive-scans.repository.js';
import { toTunnel } from '../tunnels/tunnel-view.js';
import { toMonitor } from '../monitors/monitors.repository.js';
import type { DeviceWithOrganization, DeviceWrite, DevicesRepository } from './devices.repository.js';

/** The installation key: a secret the agent presents at enrollment (256 random bits). */
export const newInstallationKey = () => randomBytes(32).toString('base64url');

/** Device rules; every access goes through the organization policy first. */
export class DevicesService {
  constructor(
    private readonly repo: DevicesRepository,
    private readonly policy: OrganizationPolicy,
    private readonly audit: AuditTrail,
    /** The tunnel proxy's own domain, for tunnels without a custom one. */
    private readonly tunnelDomain: string,
    /** Without messaging (some tests), a device has no account to take away. */
    private readonly accounts?: Pick<DeviceAccounts, 'retire'>,
  ) {}

  async search(p: Principal, q: DeviceSearchQuery): Promise<DeviceSearchResult> {
    const { rows, totals, estimated } = await this.repo.search({
      member: p,
      search: q.search,
      status: q.status,
      limit: q.size,
      offset: q.page * q.size,
    });
    return { devices: rows.map((r) => toListItem(r, this.tunnelDomain)), totals, estimated, page: q.page, size: q.size };
  }

  /** GET /api/devices-status: the recent devices' status now (issue 59: not as at the last visit). */
  statuses(p: Principal, q: DeviceStatusQuery): Promise<DeviceStatus[]> {
    return this.repo.statuses(p, [...new Set(q.ids.toLowerCase().split(','))]);
  }

  async get(p: Principal, id: string): Promise<Device> {
    // The access check, the answer and the drive scans in one statement (issue 69); the rule is
    // the policy's (readDevice): a member of the device's organization reads it.
    const row = await this.repo.findForMember(id, p);
    if (!row || !canRead(row.role)) throw notFound('Device not found.');
    const device = toDevice(row, canManage(row.role), this.tunnelDomain);
    const scans = scanDetails(row.scans);
    // The drives as the agent last reported them, each with its last scan (SPEC §3 drive detail).
    return { ...device, drives: device.drives.map((d) => ({ ...d, detail: scans.get(d.root) ?? null })) };
  }

  create(p: Principal, form: DeviceForm): Promise<Device> {
    const action = { kind: AuditKind.DeviceCreate, organizationId: form.organization, details: formDetails(form) };
    return this.audit.track(
      p,
      action,
      async () => {
        await this.policy.createDeviceIn(p, form.organization);
        const id = await this.repo.insert({ ...toWrite(form), installationKey: newInstallationKey() });
        return this.load(id);
      },
      (device) => ({ deviceId: device.id }),
    );
  }

  async update(p: Principal, id: string, form: DeviceForm): Promise<Device> {
    const before = await this.repo.findById(id);
    const details = before ? { changes: fieldChanges(before.device, toWrite(form), EDITABLE) } : formDetails(form);
    return this.audit.track(p, { kind: AuditKind.DeviceUpdate, deviceId: id, details }, async () => {
      const access = await this.policy.writeDevice(p, id);
      // Moving a device to another organization needs the same right there as creating one.
      if (form.organization !== access.organizationId) await this.policy.createDeviceIn(p, form.organization);
      await this.repo.update(id, toWrite(form));
      return this.load(id);
    });
  }

  remove(p: Principal, id: string): Promise<void> {
    return this.audit.track(p, { kind: AuditKind.DeviceDelete, deviceId: id }, async () => {
      await this.policy.writeDevice(p, id);
      // Its MQTT account first; its SSH connections and tunnels end from the delete itself (device_revocations).
      const remove = () => this.repo.delete(id);
      await (this.accounts ? this.accounts.retire(id, remove) : remove());
    });
  }

  tags(p: Principal): Promise<string[]> {
    return this.repo.tagsOf(p);
  }

  /** Where the caller may create devices: organizations where they are CREATOR or ADMIN. */
  creatableOrganizations(p: Principal) {
    return this.repo.organizationsWithRole(p, MANAGING_ROLES);
  }

  reindex(p: Principal): Promise<number> {
    return this.audit.track(p, { kind: AuditKind.DevicesReindex }, () => this.repo.reindexAll(), (indexed) => ({ details: { indexed } }));
  }

  /** After a create or update the caller evidently manages the device. */
  private async load(id: string, manage = true): Promise<Device> {
    const row = await this.repo.findById(id);
    if (!row) throw notFound('Device not found.');
    return toDevice(row, manage, this.tunnelDomain);
  }
}

function toWrite(form: DeviceForm): DeviceWrite {
  const description = form.description?.trim() ? form.description : null;
  const tags = [...new Set((form.tags ?? []).map((t) => t.trim()).filter(Boolean))];
  return { organizationId: form.organization, name: form.name, description, branch: form.branch, tags };
}

/** What a device edit can change, as the audit trail compares it. */
const EDITABLE = ['name', 'description', 'branch', 'tags', 'organizationId'] as const;

/** What a device form says, as the audit trail keeps it. */
const formDetails = (form: DeviceForm) => ({ name: form.name, branch: form.branch, ...(form.tags?.length ? { tags: form.tags } : {}) });

export function toListItem({ device: d, organization, servers, monitors: monitorRows, tunnels }: DeviceWithOrganization, tunnelDomain: string): DeviceListItem {
  const monitors = monitorRows.map(toMonitor);
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    online: d.online,
    tags: d.tags,
    branch: d.branch,
    organization,
    properties: d.properties ? withMonitorProperties(d.properties, monitors) : null,
    addresses: d.addresses,
    drives: d.drives as DeviceListItem['drives'],
    lastResponse: d.lastResponse ? new Date(d.lastResponse).toISOString() : null,
    latency: d.latency,
    servers: servers ?? [],
    monitors,
    tunnels: tunnels.map((t) => toTunnel(t, tunnelDomain)),
  };
}

/**
 * SPEC §3 reports each monitor's value as the property `monitor:{name}` (one without a value has
 * none). They come from the monitors' own readings: a `monitor:` key an agent put among its
 * properties itself names no monitor of the console's, and is left out.
 */
function withMonitorProperties(properties: Record<string, string>, monitors: Monitor[]): Record<string, string> {
  const reported = Object.entries(properties).filter(([key]) => !key.startsWith(monitorPropertyKey('')));
  const values = monitors.filter((m) => m.value !== null).map((m) => [monitorPropertyKey(m.name), m.value!]);
  return Object.fromEntries([...reported, ...values]);
}

/** The installation key goes only to those who may manage the device: with it, one could enroll as the device. */
export function toDevice(row: DeviceWithOrganization, manage: boolean, tunnelDomain: string): Device {
  const usedAt = row.device.installationKeyUsedAt;
  return {
    ...toListItem(row, tunnelDomain),
    installationId: manage ? row.device.installationKey : null,
    installationKeyUsedAt: usedAt ? new Date(usedAt).toISOString() : null,
    canManage: manage,
  };
}
