import { and, asc, eq, gte, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { MetricsSample } from '@fleetlink/contract';
import type { Db, DbExecutor } from '../../db/client.js';
import type { Member } from '../../auth/principal.js';
import { isoTimes } from '../../lib/iso-times.js';
import { memberRoleIn, roleWithin, type OrganizationRole } from '../organizations/membership.repository.js';
import { deviceMetrics, deviceOnlinePeriods, devices, deviceServers, servers } from '../../db/schema/index.js';

/** How far a device's clock may be off the console's before its load samples are not believed. */
export const DEVICE_CLOCK_SKEW_MINUTES = 5;
const CLOCK_SKEW = `${DEVICE_CLOCK_SKEW_MINUTES} minutes`;

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

  /**
   * A state message: applied only when it is not older (`order`, see the contract's stateOrder)
   * than the newest one applied, checked and applied in one transaction holding the device's row,
   * so two consoles handling one device's messages at once apply them in their order, whichever
   * ends first. The same one again is applied (a broker replays a retained state to a console that
   * subscribes anew, and the console then does what a device coming online needs). 'stale' when it
   * was older; otherwise whether the state changed.
   */
  async applyState(deviceId: string, online: boolean, at: Date, order: number | undefined): Promise<boolean | 'stale'> {
    if (order === undefined) return this.setOnline(deviceId, online, at);
    return this.db.transaction(async (tx) => {
      const newer = await tx
        .update(devices)
        .set({ stateOrder: order })
        .where(and(eq(devices.id, deviceId), or(isNull(devices.stateOrder), lte(devices.stateOrder, order))))
        .returning({ id: devices.id });
      if (!newer.length) return 'stale';
      return this.changeOnline(tx, deviceId, online, at);
    });
  }

  /**
   * State messages of many devices in one statement (a fleet coming back after a restart sends
   * thousands a second, and a fleet dropping at once its last wills; one by one they cost the
   * console five statements and a transaction each): each applied as `applyState` would, when not
   * older than the newest one applied, its device's row locked (in id order, so that two consoles
   * writing overlapping batches do not deadlock); an offline state only from the MESSAGE server the
   * device is assigned to (an old server's last will after a migration is not believed). Answers
   * those applied: whether the state changed (an online period then starts or ends; a device that
   * comes online counts as pinged now, by this console, which pings it), and the MESSAGE server it
   * is assigned to. A device missing from the answer had a newer state, is elsewhere, or is gone.
   * One entry per device.
   */
  async applyStates(
    states: { deviceId: string; serverId: string; online: boolean; order: number; at: Date }[],
  ): Promise<{ deviceId: string; changed: boolean; assignedTo: string | null }[]> {
    if (!states.length) return [];
    const column = <T>(of: (s: (typeof states)[number]) => T) => sql.param(states.map(of));
    const result = await this.db.execute<{ id: string; changed: boolean; assigned_to: string | null }>(sql`
      with v(id, server, online, ord, at) as (
        select * from unnest(${column((s) => s.deviceId)}::uuid[], ${column((s) => s.serverId)}::text[],
          ${column((s) => s.online)}::boolean[], ${column((s) => String(s.order))}::bigint[], ${column((s) => s.at.toISOString())}::timestamptz[])
      ),
      assigned as (
        select ds.device_id as id, ds.server_id as server from ${deviceServers} ds join ${servers} s on s.id = ds.server_id
        where s.type = 'MESSAGE' and ds.device_id in (select id from v)
      ),
      old as (
        select d.id, d.online as was from ${devices} d join v on v.id = d.id
        where (d.state_order is null or d.state_order <= v.ord)
          and (v.online or not exists (select 1 from assigned a where a.id = v.id and a.server::text <> v.server))
        order by d.id for update of d
      ),
      applied as (
        update ${devices} d set state_order = v.ord, online = v.online,
          last_response = case when v.online then v.at else d.last_response end,
          latency = case when v.online then d.latency end,
          pinged_at = case when v.online and not old.was then now() else d.pinged_at end
        from v join old on old.id = v.id where d.id = v.id
        returning d.id, old.was <> v.online as changed, v.online, v.at
      ),
      started as (
        insert into ${deviceOnlinePeriods} (device_id, start) select id, at from applied where changed and online
      ),
      ended as (
        update ${deviceOnlinePeriods} p set "end" = applied.at from applied
        where applied.changed and not applied.online and p.device_id = applied.id and p."end" is null
      )
      select applied.id, applied.changed, (select a.server from assigned a where a.id = applied.id limit 1) as assigned_to
      from applied`);
    return result.rows.map((r) => ({ deviceId: r.id, changed: r.changed, assignedTo: r.assigned_to }));
  }

  /** Sets online state; opens or closes an online period when it changes. True when it changed. */
  async setOnline(deviceId: string, online: boolean, at: Date): Promise<boolean> {
    if (online) {
      // The common case, every heartbeat of every device: already online, one statement.
      const touched = await this.db
        .update(devices)
        .set({ lastResponse: at })
        .where(and(eq(devices.id, deviceId), eq(devices.online, true)))
        .returning({ id: devices.id });
      if (touched.length) return false;
    }
    return this.db.transaction((tx) => this.changeOnline(tx, deviceId, online, at));
  }

  /**
   * Heartbeats that found their devices offline bring them back, many in one transaction, unless a
   * device went offline after its heartbeat arrived: a heartbeat that waited in one console's batch
   * while another console applied the device's last will (or swept it) is older news (issue 61
   * found it bringing a dead agent's device back for three heartbeats). The rows are locked first,
   * in id order as every batch locks them, so a will being applied at the same moment is seen by
   * the second statement. Answers the devices brought back. One device at a time, this was five
   * round trips each, serially: a fleet swept offline during a slow reconnect storm and then heard
   * again held the traffic behind thousands of them (issue 70).
   */
  async setOnlineByHeartbeats(beats: Map<string, Date>): Promise<string[]> {
    if (!beats.size) return [];
    const ids = sql.param([...beats.keys()]);
    const ats = sql.param([...beats.values()].map((at) => at.toISOString()));
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select id from ${devices} where id = any(${ids}::uuid[]) order by id for update`);
      const result = await tx.execute<{ id: string }>(sql`
        with v(id, at) as (select * from unnest(${ids}::uuid[], ${ats}::timestamptz[])),
        applied as (
          update ${devices} d set online = true, last_response = v.at from v
          where d.id = v.id and not d.online
            and not exists (select 1 from ${deviceOnlinePeriods} p where p.device_id = d.id and p."end" >= v.at)
          returning d.id, v.at
        ),
        started as (insert into ${deviceOnlinePeriods} (device_id, start) select id, at from applied)
        select id from applied`);
      return result.rows.map((r) => r.id);
    });
  }

  private async changeOnline(tx: DbExecutor, deviceId: string, online: boolean, at: Date): Promise<boolean> {
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
  }

  /**
   * Claims devices' next latency pings, many in one statement: of each, whether no console pinged
   * it in the last `seconds` (0: whatever was sent before), and then this one is marked as the last
   * to. Rows are locked in id order, as the state batches lock them: two consoles never wait on
   * each other in a circle.
   */
  async claimPings(claims: { deviceId: string; seconds: number }[]): Promise<boolean[]> {
    if (!claims.length) return [];
    const result = await this.db.execute<{ id: string }>(sql`
      with due as (
        select d.id from ${devices} d
        join unnest(${sql.param(claims.map((c) => c.deviceId))}::uuid[], ${sql.param(claims.map((c) => c.seconds))}::integer[]) as v(id, secs) on d.id = v.id
        where d.pinged_at is null or d.pinged_at < now() - make_interval(secs => v.secs)
        order by d.id
        for update of d
      )
      update ${devices} set pinged_at = now() from due where ${devices.id} = due.id
      returning ${devices.id} as id`);
    const claimed = new Set(result.rows.map((r) => r.id));
    // A device asked twice in one batch is claimed once: for the first asking.
    return claims.map((c) => claimed.delete(c.deviceId));
  }

  /** Latencies measured by pings, many devices' in one statement; only of devices still online, which it answers. */
  async setLatencies(latencies: Map<string, number>): Promise<string[]> {
    if (!latencies.size) return [];
    const result = await this.db.execute<{ id: string }>(sql`
      update ${devices} set latency = v.latency
      from unnest(${sql.param([...latencies.keys()])}::uuid[], ${sql.param([...latencies.values()])}::integer[]) as v(id, latency)
      where ${devices.id} = v.id and ${devices.online}
      returning ${devices.id} as id`);
    return result.rows.map((r) => r.id);
  }

  /**
   * Heartbeats of many devices in one statement: last response of those already online. Answers
   * the ids it did not update (offline, or gone), for the caller to bring online one by one.
   */
  async touchOnline(beats: Map<string, Date>): Promise<string[]> {
    if (!beats.size) return [];
    // Arrays as two parameters, not two parameters a device: the statement's text stays the same
    // whatever the batch's size, and building it costs the console nothing per device.
    const result = await this.db.execute<{ id: string }>(sql`
      update ${devices} set last_response = greatest(${devices.lastResponse}, v.at)
      from unnest(${sql.param([...beats.keys()])}::uuid[], ${sql.param([...beats.values()].map((at) => at.toISOString()))}::timestamptz[]) as v(id, at)
      where ${devices.id} = v.id and ${devices.online}
      returning ${devices.id} as id`);
    const done = new Set(result.rows.map((r) => r.id));
    return [...beats.keys()].filter((id) => !done.has(id));
  }

  /**
   * Load samples of many devices in one statement, each also recording when its device was last
   * heard from. Samples of devices that no longer exist are dropped; so are samples dated before
   * their device was registered (give or take a device clock's skew), which are answered so the
   * caller can say so.
   */
  async addMetrics(samples: { deviceId: string; time: Date; systemLoad: number; heardAt: Date }[]): Promise<{ deviceId: string; time: Date }[]> {
    if (!samples.length) return [];
    const column = <T>(of: (m: (typeof samples)[number]) => T) => sql.param(samples.map(of));
    const values = sql`select * from unnest(${column((m) => m.deviceId)}::uuid[], ${column((m) => m.time.toISOString())}::timestamptz[],
      ${column((m) => m.systemLoad)}::real[], ${column((m) => m.heardAt.toISOString())}::timestamptz[])`;
    // Data-modifying WITH parts run to completion whether or not the final select reads them.
    const early = await this.db.execute<{ id: string; time: string | Date }>(sql`
      with v(id, time, load, at) as (${values}),
      sample as (
        insert into ${deviceMetrics} (device_id, time, system_load)
        select v.id, v.time, v.load from v join ${devices} d on d.id = v.id
        where v.time >= d.created_at - ${CLOCK_SKEW}::interval
        on conflict do nothing
      ),
      heard as (select id, max(at) as at from v group by id),
      touched as (
        update ${devices} set last_response = greatest(${devices.lastResponse}, heard.at)
        from heard where ${devices.id} = heard.id
      )
      select v.id, v.time from v join ${devices} d on d.id = v.id where v.time < d.created_at - ${CLOCK_SKEW}::interval`);
    return early.rows.map((r) => ({ deviceId: r.id, time: new Date(r.time) }));
  }

  /**
   * Devices still marked online that have not been heard from since `cutoff`: marks them offline
   * and ends their online periods, in one statement (after a message server is lost, that is every
   * device it held). A heartbeat written meanwhile keeps its device online: the row is checked
   * again once its lock is free.
   */
  async expireSilent(cutoff: Date, now: Date): Promise<string[]> {
    const result = await this.db.execute<{ id: string }>(sql`
      with gone as (
        update ${devices} set online = false, latency = null
        where ${devices.online} and (${devices.lastResponse} is null or ${devices.lastResponse} < ${cutoff.toISOString()}::timestamptz)
        returning ${devices.id} as id
      ),
      ended as (
        update ${deviceOnlinePeriods} p set "end" = ${now.toISOString()}::timestamptz
        from gone where p.device_id = gone.id and p."end" is null
      )
      select id from gone`);
    return result.rows.map((r) => r.id);
  }

  /**
   * A device's load samples since `since`, as the API answers them (ISO times), with the member's
   * role in its organization (undefined: none; no row: no such device): one prepared statement.
   * The samples come as two JSON arrays, times in epoch milliseconds and loads: PostgreSQL writing
   * a day of them (288) as objects with to_char took 1.1 ms of its CPU per call, the arrays 0.3 ms
   * (JSON, not PostgreSQL arrays: node-postgres parses a JSON array ten times faster). The ISO
   * strings are made here (issue 69).
   */
  async metricsForMember(deviceId: string, member: Member, since: Date): Promise<{ role?: OrganizationRole; samples: MetricsSample[] } | undefined> {
    this.metricsStatement ??= this.prepareMetrics();
    const [row] = await this.metricsStatement.execute({ id: deviceId, username: member.username, since: since.toISOString() });
    if (!row) return undefined;
    const loads = row.loads ?? [];
    return {
      role: roleWithin(member, row.organizationId, row.role),
      samples: isoTimes(row.times ?? []).map((time, i) => ({ time, systemLoad: loads[i]! })),
    };
  }

  private metricsStatement?: ReturnType<TelemetryRepository['prepareMetrics']>;

  private prepareMetrics() {
    // floor(numeric * 1000): the exact millisecond, as to_char's MS was; a float would round
    // some times a millisecond down.
    const samples = this.db
      .select({
        times: sql<number[] | null>`json_agg(floor(extract(epoch from ${deviceMetrics.time}) * 1000)::int8 order by ${deviceMetrics.time})`.as('times'),
        loads: sql<number[] | null>`json_agg(${deviceMetrics.systemLoad} order by ${deviceMetrics.time})`.as('loads'),
      })
      .from(deviceMetrics)
      .where(and(eq(deviceMetrics.deviceId, devices.id), gte(deviceMetrics.time, sql`${sql.placeholder('since')}::timestamptz`)))
      .as('samples');
    return this.db
      .select({
        organizationId: devices.organizationId,
        role: memberRoleIn(devices.organizationId, sql.placeholder('username')),
        times: samples.times,
        loads: samples.loads,
      })
      .from(devices)
      .leftJoinLateral(samples, sql`true`)
      .where(eq(devices.id, sql.placeholder('id')))
      .prepare('device_metrics_for_member');
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
