import { AuditKind, fileChangeResultSchema, RequestName, type FileChangeResult, type NewFolderForm, type RenameFileForm } from '@fleetlink/contract';
import type { Principal } from '../../auth/principal.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { callDevice, deviceAnswer, type DeviceCallDeps } from '../broker/device-call.js';
import type { OrganizationPolicy } from '../organizations/organization.policy.js';

/** A change is one filesystem call; a recursive delete of a big folder may take a while. */
const CHANGE_TIMEOUT_MS = 30_000;
const RECURSIVE_DELETE_TIMEOUT_MS = 120_000;
const GRACE_MS = 3_000;

const TEXTS = {
  offline: 'The device is offline: its files can be changed only while its agent is connected.',
  wentOffline: 'The device went offline before it answered: check whether the change was made.',
};

/**
 * The Storage page's changes (issue 26 item 3): new folder, rename, delete. Each needs CREATOR or
 * ADMIN of the device's organization and leaves an audit entry with the paths; the agent checks the
 * names again, since it trusts nothing that arrives over the wire.
 */
export class FilesService {
  constructor(private readonly deps: DeviceCallDeps & { policy: OrganizationPolicy; audit: AuditTrail }) {}

  createFolder(p: Principal, deviceId: string, form: NewFolderForm): Promise<FileChangeResult> {
    const action = { kind: AuditKind.FolderCreate, deviceId, details: { path: form.path, name: form.name } };
    return this.deps.audit.track(p, action, () => this.change(p, deviceId, RequestName.CreateFolder, form, CHANGE_TIMEOUT_MS));
  }

  rename(p: Principal, deviceId: string, form: RenameFileForm): Promise<FileChangeResult> {
    const action = { kind: AuditKind.FileRename, deviceId, details: { path: form.path, name: form.name } };
    return this.deps.audit.track(p, action, () => this.change(p, deviceId, RequestName.Rename, form, CHANGE_TIMEOUT_MS));
  }

  remove(p: Principal, deviceId: string, path: string, recursive: boolean): Promise<FileChangeResult> {
    const action = { kind: AuditKind.FileDelete, deviceId, details: { path, ...(recursive ? { recursive } : {}) } };
    const timeout = recursive ? RECURSIVE_DELETE_TIMEOUT_MS : CHANGE_TIMEOUT_MS;
    return this.deps.audit.track(p, action, () => this.change(p, deviceId, RequestName.Delete, { path, recursive }, timeout));
  }

  private async change(p: Principal, deviceId: string, name: string, parameters: Record<string, unknown>, timeoutMs: number): Promise<FileChangeResult> {
    await this.deps.policy.writeDevice(p, deviceId);
    const answer = await callDevice(this.deps, deviceId, name, parameters, { timeoutMs, graceMs: GRACE_MS }, TEXTS);
    return deviceAnswer(fileChangeResultSchema, answer ?? {}, 'a file change');
  }
}
