import { DISK_SCAN_TIMEOUT_MS, type DiskUsage, type DriveDetail } from '@fleetlink/contract';
import { and, eq, lt, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { driveScans } from '../../db/schema/index.js';

/**
 * How long a scan may stay BUSY: its deadline on the device and the way back. One older than that
 * lost its console (a restart) and is shown as failed; a new one may start.
 */
const SCAN_STALE_MS = DISK_SCAN_TIMEOUT_MS + 30_000;
const STALE_ERROR = 'The scan did not finish: the console lost track of it (it restarted, or the device went away).';

type ScanRow = typeof driveScans.$inferSelect;

/** The last scan of each drive of a device (SPEC §3 drive detail). */
export class DriveScansRepository {
  constructor(private readonly db: Db) {}

  /**
   * Marks the drive BUSY from `startedAt`, unless a scan of it is running already: one statement,
   * so two people pressing Scan at once start one scan. True when this call started it.
   */
  async claim(deviceId: string, root: string, startedAt: Date): Promise<boolean> {
    const staleBefore = new Date(startedAt.getTime() - SCAN_STALE_MS);
    const rows = await this.db
      .insert(driveScans)
      .values({ deviceId, root, status: 'BUSY', startedAt })
      .onConflictDoUpdate({
        target: [driveScans.deviceId, driveScans.root],
        set: { status: 'BUSY', startedAt, finishedAt: null, result: null, error: null },
        setWhere: or(sql`${driveScans.status} <> 'BUSY'`, lt(driveScans.startedAt, staleBefore)),
      })
      .returning({ root: driveScans.root });
    return rows.length === 1;
  }

  /** The scan that started at `startedAt` ended; a later one (after a stale one) is left alone. */
  async finish(deviceId: string, root: string, startedAt: Date, end: { result: DiskUsage } | { error: string }): Promise<void> {
    await this.db
      .update(driveScans)
      .set({
        status: 'result' in end ? 'DONE' : 'FAILED',
        finishedAt: new Date(),
        result: 'result' in end ? end.result : null,
        error: 'error' in end ? end.error : null,
      })
      .where(and(eq(driveScans.deviceId, deviceId), eq(driveScans.root, root), eq(driveScans.startedAt, startedAt)));
  }

  /** Drive root → its last scan. */
  async ofDevice(deviceId: string, now = new Date()): Promise<Map<string, DriveDetail>> {
    const rows = await this.db.select().from(driveScans).where(eq(driveScans.deviceId, deviceId));
    return scanDetails(rows, now);
  }
}

/** A device's scans as a sub-select gives them (driveScansOf): times as JSON writes them. */
export type ScanJson = Omit<ScanRow, 'startedAt' | 'finishedAt'> & { startedAt: string; finishedAt: string | null };

/** The device's scans, one correlated sub-select on the (device, root) primary key, for an answer read in one statement. */
export const driveScansOf = (deviceId: SQL | AnyColumn) => sql<ScanJson[]>`coalesce((select json_agg(json_build_object('deviceId', ${driveScans.deviceId},
    'root', ${driveScans.root}, 'status', ${driveScans.status}, 'startedAt', ${driveScans.startedAt}, 'finishedAt', ${driveScans.finishedAt},
    'result', ${driveScans.result}, 'error', ${driveScans.error})) from ${driveScans} where ${driveScans.deviceId} = ${deviceId}), '[]'::json)`;

/** Drive root → its last scan. */
export function scanDetails(rows: (ScanRow | ScanJson)[], now = new Date()): Map<string, DriveDetail> {
  return new Map(
    rows.map((row) => [
      row.root,
      toDetail({ ...row, startedAt: new Date(row.startedAt), finishedAt: row.finishedAt === null ? null : new Date(row.finishedAt) }, now),
    ]),
  );
}

function toDetail(row: ScanRow, now: Date): DriveDetail {
  const stale = row.status === 'BUSY' && now.getTime() - row.startedAt.getTime() > SCAN_STALE_MS;
  return {
    status: stale ? 'FAILED' : row.status,
    root: row.result ?? null,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    error: stale ? STALE_ERROR : row.error,
  };
}
