import { DISK_SCAN_TIMEOUT_MS, type DiskUsage, type DriveDetail } from '@fleetlink/contract';
import { and, eq, lt, or, sql } from 'drizzle-orm';
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
    return new Map(rows.map((row) => [row.root, toDetail(row, now)]));
  }
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
