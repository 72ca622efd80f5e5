import { and, asc, eq, gte, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { deviceMetrics, deviceOnlinePeriods, devices } from '../../db/schema/index.js';

/**
 * The SQL of what agents report about themselves: online state and its periods, last response,
 * latency and load samples. (Properties, addresses and drives go through the devices repository,
 * which keeps the search document current.)
 */
export class TelemetryRepository {
  constructor(private readonly db: Db) {}

  async exists(deviceId: string): Promise<boolean> {
    const [row] = await this.db.select({ id: devices.id }).from(devices).where(eq(devices.id, deviceId));
    return !!row;
  }

  /** Sets online state; opens or closes an online period when it changes. True when it changed. */
  async setOnline(deviceId: string, online: boolean, at: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const changed = await tx
        .update(devices)
        .set(online ? { online, lastResponse: at } : { online, latency: null })
        .where(and(eq(devices.id, deviceId), eq(devices.online, !online)))
        .returning({ id: devices.id });
      if (!changed.length) {
        if (online) await tx.update(devices).set({ lastResponse: at }).where(eq(devices.id, deviceId));
        return false;
      }
      if (online) {
        await tx.insert(deviceOnlinePeriods).values({ deviceId, start: at });
      } else {
        await tx
          .update(deviceOnlinePeriods)
          .set({ end: at })
          .where(and(eq(deviceOnlinePeriods.deviceId, deviceId), isNull(deviceOnlinePeriods.end)));
      }
      return true;
    });
  }

  async touch(deviceId: string, at: Date): Promise<void> {
    await this.db.update(devices).set({ lastResponse: at }).where(eq(devices.id, deviceId));
  }

  async setLatency(deviceId: string, latency: number): Promise<void> {
    await this.db.update(devices).set({ latency }).where(and(eq(devices.id, deviceId), eq(devices.online, true)));
  }

  async isOnline(deviceId: string): Promise<boolean> {
    const [row] = await this.db.select({ online: devices.online }).from(devices).where(eq(devices.id, deviceId));
    return row?.online ?? false;
  }

  async addMetric(deviceId: string, time: Date, systemLoad: number): Promise<void> {
    await this.db.insert(deviceMetrics).values({ deviceId, time, systemLoad }).onConflictDoNothing();
  }

  /** Devices still marked online that have not been heard from since `cutoff`: marks them offline. */
  async expireSilent(cutoff: Date, now: Date): Promise<string[]> {
    const stale = await this.db
      .select({ id: devices.id })
      .from(devices)
      .where(and(eq(devices.online, true), or(isNull(devices.lastResponse), lt(devices.lastResponse, cutoff))));
    const expired: string[] = [];
    for (const { id } of stale) if (await this.setOnline(id, false, now)) expired.push(id);
    return expired;
  }

  metrics(deviceId: string, since: Date) {
    return this.db
      .select({ time: deviceMetrics.time, systemLoad: deviceMetrics.systemLoad })
      .from(deviceMetrics)
      .where(and(eq(deviceMetrics.deviceId, deviceId), gte(deviceMetrics.time, since)))
      .orderBy(asc(deviceMetrics.time));
  }

  /** Online periods that overlap [since, now]. */
  timeline(deviceId: string, since: Date) {
    return this.db
      .select({ start: deviceOnlinePeriods.start, end: deviceOnlinePeriods.end })
      .from(deviceOnlinePeriods)
      .where(and(eq(deviceOnlinePeriods.deviceId, deviceId), or(isNull(deviceOnlinePeriods.end), gte(deviceOnlinePeriods.end, since))))
      .orderBy(asc(deviceOnlinePeriods.start));
  }

  /** Drops samples older than the longest view (8 days) so the table stays small. */
  async pruneMetrics(before: Date): Promise<void> {
    await this.db.delete(deviceMetrics).where(lt(deviceMetrics.time, before));
    await this.db.delete(deviceOnlinePeriods).where(and(lt(deviceOnlinePeriods.end, before), sql`${deviceOnlinePeriods.end} is not null`));
  }
}
