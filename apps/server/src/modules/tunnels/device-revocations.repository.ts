import { asc, gt, lt, sql } from 'drizzle-orm';
import type { ProxyRevocations } from '@fleetlink/contract';
import type { Db } from '../../db/client.js';
import { deviceRevocations } from '../../db/schema/index.js';

/** Rows read per call: a reader with more to catch up on asks again at once. */
const PAGE = 1000;
/** How long rows are kept: a reader that could not ask for longer ends all its connections (RevocationWatch). */
const KEEP = '1 day';
const PRUNE_EVERY_MS = 60_000;

/** The revocations the database's triggers write (migration 0018), as tunnel proxies and the built-in broker read them. */
export class DeviceRevocationsRepository {
  private prunedAt = 0;

  constructor(private readonly db: Db) {}

  /** The cursor a reader starts from: the latest revocation now. */
  private async latest(): Promise<number> {
    const [row] = await this.db.select({ seq: sql<string | null>`max(${deviceRevocations.seq})` }).from(deviceRevocations);
    return Number(row?.seq ?? 0);
  }

  /**
   * The devices whose channels on one server (a tunnel proxy, the built-in broker) must end since
   * the cursor: deleted or re-keyed ones, and those moved off that server. Null starts at the latest.
   */
  async forServer(serverId: string, after: string | null): Promise<ProxyRevocations> {
    if (after === null) return { cursor: String(await this.latest()), devices: [], more: false };
    const rows = await this.after(Number(after));
    const devices = new Set(rows.filter((r) => r.serverId === null || r.serverId === serverId).map((r) => r.deviceId));
    return { cursor: String(rows.at(-1)?.seq ?? after), devices: [...devices], more: rows.length === PAGE };
  }

  /** Revocations after the cursor, in order; at most one page. */
  private async after(seq: number): Promise<{ seq: number; deviceId: string; serverId: string | null }[]> {
    await this.prune();
    return this.db
      .select({ seq: deviceRevocations.seq, deviceId: deviceRevocations.deviceId, serverId: deviceRevocations.serverId })
      .from(deviceRevocations)
      .where(gt(deviceRevocations.seq, seq))
      .orderBy(asc(deviceRevocations.seq))
      .limit(PAGE);
  }

  /** At most once a minute per console: the table only grows by devices deleted, re-keyed or moved. */
  private async prune(): Promise<void> {
    if (Date.now() - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = Date.now();
    await this.db.delete(deviceRevocations).where(lt(deviceRevocations.at, sql`now() - ${KEEP}::interval`));
  }
}
