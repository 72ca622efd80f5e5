import { AuditKind, DISK_SCAN_TIMEOUT_MS, diskUsageSchema, driveOf, ErrorCode, RequestName, type DiskScanRequest, type DriveDetail } from '@fleetlink/contract';
import type { Principal } from '../../auth/principal.js';
import { AppError, badRequest } from '../../lib/app-error.js';
import type { LiveChanges } from '../live/live-bus.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { callDevice, deviceAnswer, deviceUnavailable, type DeviceCallDeps } from '../broker/device-call.js';
import type { DevicesRepository } from '../devices/devices.repository.js';
import type { OrganizationPolicy } from '../organizations/organization.policy.js';
import type { DriveScansRepository } from './drive-scans.repository.js';

/** The answer's way back after the agent's own deadline. */
const GRACE_MS = 15_000;

const TEXTS = {
  offline: 'The device is offline: a drive can be scanned only while its agent is connected.',
  wentOffline: 'The device went offline during the scan.',
};

type ErrorLog = { error(obj: object, msg: string): void };

/**
 * Drive scans (SPEC §4, §7 POST /api/device/{id}/disk?path=): starting one marks the drive BUSY
 * and answers at once; the agent measures the drive in the background and the result (or why there
 * is none) replaces BUSY when it comes. Any member may scan: it reads, it changes nothing on the
 * device, and it is in the audit trail.
 */
export class DriveScanService {
  /** Scans this console waits for, so a test or a shutdown can wait for them too. */
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly deps: DeviceCallDeps & {
      devices: Pick<DevicesRepository, 'isOnline' | 'findById'>;
      scans: DriveScansRepository;
      policy: OrganizationPolicy;
      audit: AuditTrail;
      log: ErrorLog;
      live?: LiveChanges;
    },
  ) {}

  start(p: Principal, deviceId: string, path: string): Promise<DriveDetail> {
    return this.deps.audit.track(p, { kind: AuditKind.DriveScan, deviceId, details: { path } }, () => this.startNow(p, deviceId, path));
  }

  /** Resolves when every scan started here has ended. */
  async settled(): Promise<void> {
    await Promise.all(this.running);
  }

  private async startNow(p: Principal, deviceId: string, path: string): Promise<DriveDetail> {
    await this.deps.policy.readDevice(p, deviceId);
    const device = await this.deps.devices.findById(deviceId);
    if (!device?.device.online) throw deviceUnavailable(TEXTS.offline);
    const root = driveOf(device.device.drives as { root: string }[], path);
    if (!root) throw badRequest(`'${path}' is on none of this device's drives.`);

    const startedAt = new Date();
    if (!(await this.deps.scans.claim(deviceId, root, startedAt))) {
      throw new AppError(409, ErrorCode.Conflict, `A scan of the drive ${root} is running already: wait for it to finish.`);
    }
    const request: DiskScanRequest = { path, budgetMs: DISK_SCAN_TIMEOUT_MS };
    const scan = this.scan(deviceId, root, startedAt, request).finally(() => this.running.delete(scan));
    this.running.add(scan);
    return { status: 'BUSY', root: null, startedAt: startedAt.toISOString(), finishedAt: null, error: null };
  }

  private async scan(deviceId: string, root: string, startedAt: Date, request: DiskScanRequest): Promise<void> {
    let end: Parameters<DriveScansRepository['finish']>[3];
    try {
      const answer = await callDevice(this.deps, deviceId, RequestName.DiskScan, request, { timeoutMs: DISK_SCAN_TIMEOUT_MS, graceMs: GRACE_MS }, TEXTS);
      end = { result: deviceAnswer(diskUsageSchema, answer, 'a drive scan') };
    } catch (err) {
      end = { error: (err as Error).message };
    }
    await this.deps.scans.finish(deviceId, root, startedAt, end).then(
      () => this.deps.live?.device(deviceId, 'drives'),
      (err: Error) => this.deps.log.error({ err, deviceId }, 'drive scan: the result could not be saved'),
    );
  }
}
