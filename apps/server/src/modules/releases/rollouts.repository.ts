import { AgentProperty, deviceBranchesFollowing, type ReleaseBranch, type RolloutDeviceState, type RolloutState, type RolloutWave } from '@fleetlink/contract';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, DbExecutor } from '../../db/client.js';
import { devices, releaseRollouts, rolloutDevices } from '../../db/schema/index.js';
import type { DeviceBranch } from '@fleetlink/contract';

export type RolloutRow = typeof releaseRollouts.$inferSelect;

/** A wave's devices by state, as the tick counts them. */
export interface WaveCount {
  wave: number;
  state: RolloutDeviceState;
  n: number;
}

const INSERT_CHUNK = 1000;
const prop = (key: string) => sql`${devices.properties} ->> ${key}`;

/** The SQL of staged rollouts (issue 65). */
export class RolloutsRepository {
  constructor(private readonly db: Db) {}

  async rollout(releaseId: string): Promise<RolloutRow | undefined> {
    const [row] = await this.db.select().from(releaseRollouts).where(eq(releaseRollouts.releaseId, releaseId));
    return row;
  }

  async rollouts(releaseIds: string[]): Promise<RolloutRow[]> {
    if (!releaseIds.length) return [];
    return this.db.select().from(releaseRollouts).where(inArray(releaseRollouts.releaseId, releaseIds));
  }

  /** The rollouts whose waves move on: the runner's work at each tick. */
  running(): Promise<RolloutRow[]> {
    return this.db.select().from(releaseRollouts).where(eq(releaseRollouts.state, 'RUNNING'));
  }

  /** The ids of the devices a release reaches (those whose branch follows its branch). */
  async deviceIds(branches: readonly DeviceBranch[]): Promise<string[]> {
    if (!branches.length) return [];
    const rows = await this.db.select({ id: devices.id }).from(devices).where(inArray(devices.branch, [...branches]));
    return rows.map((r) => r.id);
  }

  /**
   * A rollout in place of any before it, with its devices in their waves, in one transaction: in
   * `tx` when given (a new release and its rollout are made together, so no agent ever sees the
   * release without its waves).
   */
  async start(row: typeof releaseRollouts.$inferInsert, members: { deviceId: string; wave: number }[], tx?: DbExecutor): Promise<RolloutRow> {
    if (!tx) return this.db.transaction((t) => this.start(row, members, t));
    await tx.delete(releaseRollouts).where(eq(releaseRollouts.releaseId, row.releaseId));
    const [inserted] = await tx.insert(releaseRollouts).values(row).returning();
    for (let i = 0; i < members.length; i += INSERT_CHUNK) {
      await tx
        .insert(rolloutDevices)
        .values(members.slice(i, i + INSERT_CHUNK).map((m) => ({ releaseId: row.releaseId, ...m })))
        .onConflictDoNothing();
    }
    return inserted!;
  }

  async remove(releaseId: string): Promise<boolean> {
    return (await this.db.delete(releaseRollouts).where(eq(releaseRollouts.releaseId, releaseId)).returning({ id: releaseRollouts.releaseId })).length > 0;
  }

  /** Moves a rollout from one of `from` to `patch.state`; undefined when it was in none of them (another console or person was first). */
  async move(releaseId: string, from: readonly RolloutState[], patch: Partial<typeof releaseRollouts.$inferInsert>, wave?: number): Promise<RolloutRow | undefined> {
    const [row] = await this.db
      .update(releaseRollouts)
      .set({ ...patch, updatedAt: new Date() })
      .where(and(eq(releaseRollouts.releaseId, releaseId), inArray(releaseRollouts.state, [...from]), wave === undefined ? undefined : eq(releaseRollouts.wave, wave)))
      .returning();
    return row;
  }

  async member(releaseId: string, deviceId: string): Promise<{ wave: number } | undefined> {
    const [row] = await this.db
      .select({ wave: rolloutDevices.wave })
      .from(rolloutDevices)
      .where(and(eq(rolloutDevices.releaseId, releaseId), eq(rolloutDevices.deviceId, deviceId)));
    return row;
  }

  /** A device that appeared after the rollout started joins its wave (the same rule decides it on every console). */
  async join(releaseId: string, deviceId: string, wave: number): Promise<void> {
    await this.db.insert(rolloutDevices).values({ releaseId, deviceId, wave }).onConflictDoNothing();
  }

  async offered(releaseId: string, deviceId: string): Promise<void> {
    await this.db
      .update(rolloutDevices)
      .set({ offeredAt: new Date() })
      .where(and(eq(rolloutDevices.releaseId, releaseId), eq(rolloutDevices.deviceId, deviceId), isNull(rolloutDevices.offeredAt)));
  }

  async downloaded(releaseIds: string[], deviceId: string): Promise<void> {
    if (!releaseIds.length) return;
    await this.db
      .update(rolloutDevices)
      .set({ downloadedAt: new Date() })
      .where(and(inArray(rolloutDevices.releaseId, releaseIds), eq(rolloutDevices.deviceId, deviceId), isNull(rolloutDevices.downloadedAt)));
  }

  /**
   * Reads again how each device of the started waves fares from what its agent reports (SPEC §3
   * properties): running the target, failed on it (kept failed until it runs it), updating to it
   * (failed once offered longer than `deadlineMinutes` ago: it is not back), or waiting. Answers how
   * many changed.
   */
  async refresh(releaseId: string, target: string | null, upToWave: number, deadlineMinutes: number): Promise<number> {
    const toTarget = sql`${prop(AgentProperty.UpdateBundleVersion)} = ${target}`;
    const status = prop(AgentProperty.UpdateStatus);
    // What the agent says, read once per device (`f`); the state and its reason follow from it.
    const result = await this.db.execute(sql`
      update ${rolloutDevices} as t set state = s.next, reason = s.why, changed_at = now()
      from (
        select f.device_id,
          case
            when f.runs then 'running'
            when f.was_failed or f.reported_failed or f.late then 'failed'
            when f.updating then 'updating'
            else 'waiting'
          end as next,
          case
            when f.runs then null
            when f.was_failed then f.reason
            when f.reported_failed then coalesce(f.error, 'the update failed')
            when f.late then ${`not back online within ${deadlineMinutes} minutes`}
          end as why
        from (
          select rd.device_id, rd.reason,
            coalesce(${prop(AgentProperty.BundleVersion)} = ${target}, false) as runs,
            rd.state = 'failed' as was_failed,
            coalesce(${status} = 'FAILED' and ${toTarget}, false) as reported_failed,
            coalesce(rd.offered_at is not null and ${status} = 'UPDATING' and ${toTarget}, false) as updating,
            coalesce(rd.offered_at is not null and ${status} = 'UPDATING' and ${toTarget}
              and rd.offered_at < now() - make_interval(secs => ${deadlineMinutes * 60}), false) as late,
            ${prop(AgentProperty.UpdateError)} as error
          from ${rolloutDevices} rd join ${devices} on ${devices.id} = rd.device_id
          where rd.release_id = ${releaseId} and rd.wave <= ${upToWave}
        ) f
      ) s
      where t.release_id = ${releaseId} and t.device_id = s.device_id and (t.state <> s.next or t.reason is distinct from s.why)
      returning t.device_id`);
    return result.rows.length;
  }

  /** Devices per wave and state, of those that still follow the release's branch. */
  async counts(releases: { id: string; branch: ReleaseBranch }[]): Promise<Map<string, WaveCount[]>> {
    const out = new Map<string, WaveCount[]>();
    if (!releases.length) return out;
    const releaseIds = releases.map((r) => r.id);
    const branchesOf = new Map(releases.map((r) => [r.id, deviceBranchesFollowing(r.branch)]));
    const rows = await this.db
      .select({ releaseId: rolloutDevices.releaseId, wave: rolloutDevices.wave, state: rolloutDevices.state, branch: devices.branch, n: count() })
      .from(rolloutDevices)
      .innerJoin(devices, eq(devices.id, rolloutDevices.deviceId))
      .where(inArray(rolloutDevices.releaseId, releaseIds))
      .groupBy(rolloutDevices.releaseId, rolloutDevices.wave, rolloutDevices.state, devices.branch);
    for (const r of rows) {
      if (!branchesOf.get(r.releaseId)?.includes(r.branch)) continue;
      const list = out.get(r.releaseId) ?? [];
      list.push({ wave: r.wave, state: r.state, n: r.n });
      out.set(r.releaseId, list);
    }
    return out;
  }

  /** The failed devices of a wave, first failed first: the halt's reason names one. */
  async failures(releaseId: string, wave: number, limit = 3): Promise<{ name: string; reason: string | null }[]> {
    return this.db
      .select({ name: devices.name, reason: rolloutDevices.reason })
      .from(rolloutDevices)
      .innerJoin(devices, eq(devices.id, rolloutDevices.deviceId))
      .where(and(eq(rolloutDevices.releaseId, releaseId), eq(rolloutDevices.wave, wave), eq(rolloutDevices.state, 'failed')))
      .orderBy(asc(rolloutDevices.changedAt))
      .limit(limit);
  }

  /**
   * Online devices of the started waves (up to `upToWave`) that were not offered the release yet nor
   * asked to check: they are marked asked and answered, to be asked once. One offline now is asked at
   * a tick after it came back online.
   */
  async toNudge(releaseId: string, upToWave: number): Promise<string[]> {
    const result = await this.db.execute(sql`
      update ${rolloutDevices} as rd set nudged_at = now()
      from ${devices}
      where ${devices.id} = rd.device_id and ${devices.online} and rd.release_id = ${releaseId} and rd.wave <= ${upToWave}
        and rd.state = 'waiting' and rd.offered_at is null and rd.nudged_at is null
      returning rd.device_id`);
    return result.rows.map((r) => String(r.device_id));
  }

  /** A resumed rollout asks again the devices it asked before that have not checked since. */
  async forgetNudges(releaseId: string): Promise<void> {
    await this.db
      .update(rolloutDevices)
      .set({ nudgedAt: null })
      .where(and(eq(rolloutDevices.releaseId, releaseId), isNull(rolloutDevices.offeredAt)));
  }

  /** Online devices of these branches that run this agent bundle version: after a rollback they are asked to check now. */
  async runningOnline(branches: readonly DeviceBranch[], bundleVersion: string): Promise<string[]> {
    if (!branches.length) return [];
    const rows = await this.db
      .select({ id: devices.id })
      .from(devices)
      .where(and(inArray(devices.branch, [...branches]), eq(devices.online, true), sql`${prop(AgentProperty.BundleVersion)} = ${bundleVersion}`));
    return rows.map((r) => r.id);
  }

  /** One wave's devices, by name, at most `limit`. */
  async wave(releaseId: string, wave: number, limit: number) {
    const where = and(eq(rolloutDevices.releaseId, releaseId), eq(rolloutDevices.wave, wave));
    const [rows, [total]] = await Promise.all([
      this.db
        .select({ id: devices.id, name: devices.name, wave: rolloutDevices.wave, state: rolloutDevices.state, reason: rolloutDevices.reason, offeredAt: rolloutDevices.offeredAt })
        .from(rolloutDevices)
        .innerJoin(devices, eq(devices.id, rolloutDevices.deviceId))
        .where(where)
        .orderBy(asc(devices.name), asc(devices.id))
        .limit(limit),
      this.db.select({ n: count() }).from(rolloutDevices).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }
}


