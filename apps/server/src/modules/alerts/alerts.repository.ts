import { randomUUID } from 'node:crypto';
import { alertLimits, type AlertEventType, type AlertRuleForm, type AlertWebhookBody } from '@fleetlink/contract';
import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { Db, DbExecutor } from '../../db/client.js';
import {
  alertDeliveries,
  alertEvents,
  alertInbox,
  alertRuleStates,
  alertRules,
  auditEntries,
  deviceSearch,
  devices,
  jobResults,
  jobRuns,
  jobs,
  organizationMembers,
  organizations,
  rolloutDevices,
  users,
} from '../../db/schema/index.js';
import { matchCondition } from '../devices/devices.repository.js';
import { MANAGING_ROLES } from '../organizations/organization.policy.js';

export type AlertRuleRow = typeof alertRules.$inferSelect;
export type DeliveryRow = typeof alertDeliveries.$inferSelect;
export interface NamedDevice {
  id: string;
  name: string;
}

/** A delivery claimed for sending, with what it sends and, for a webhook, the sealed secret it is signed with. */
export interface ClaimedDelivery {
  delivery: DeliveryRow;
  body: AlertWebhookBody;
  sealedSecret: string | null;
}

/** What a rule says: an event's type, its one-line summary, and the rest of the body its channels get. */
export interface NewEvent {
  type: AlertEventType;
  summary: string;
  body: Omit<AlertWebhookBody, 'id' | 'type' | 'summary' | 'time'>;
}

/** What an evaluation found: how many, and the first alertLimits.devicesListed of them by name. */
export interface Found {
  count: number;
  listed: NamedDevice[];
}

/** An offline device's state: seen offline, waiting for the rule's minutes; said to be offline. */
const PENDING = 'pending';
const ALERTED = 'alerted';

/** How long a console has to send a claimed delivery before another may take it. */
const CLAIM_LEASE_SECONDS = 60;

/** A drive's used share, in percent, from the agent's report (null without both sizes). */
const usedPercent = (drive: SQL) =>
  sql`case when (${drive}->>'totalSpace')::float8 > 0 then 100 * (1 - coalesce((${drive}->>'freeSpace')::float8, 0) / (${drive}->>'totalSpace')::float8) end`;

/** The devices a rule watches, over `devices` joined with its search row. */
function watched(rule: AlertRuleRow): SQL | undefined {
  const tag = rule.devices.tag?.trim();
  return and(
    rule.organizationId ? eq(devices.organizationId, rule.organizationId) : undefined,
    matchCondition(rule.devices.search),
    tag ? sql`${tag} = any(${devices.tags})` : undefined,
  );
}

/** A realm ADMIN, by the roles the console granted at their last sign-in. */
const isRealmAdmin = sql`'ADMIN' = any(${users.roles})`;
const manages = inArray(organizationMembers.role, [...MANAGING_ROLES]);

const ofScope = (organizationId: string | null) => (organizationId ? eq(alertRules.organizationId, organizationId) : isNull(alertRules.organizationId));

/** The SQL of alert rules, what they said, and its deliveries and bell (issue 66). */
export class AlertsRepository {
  constructor(private readonly db: Db) {}

  /** An organization's rules, or the realm's (null). */
  list(organizationId: string | null): Promise<AlertRuleRow[]> {
    return this.db.select().from(alertRules).where(ofScope(organizationId)).orderBy(asc(alertRules.name), asc(alertRules.id));
  }

  async get(organizationId: string | null, ruleId: string): Promise<AlertRuleRow | undefined> {
    const [row] = await this.db.select().from(alertRules).where(and(ofScope(organizationId), eq(alertRules.id, ruleId)));
    return row;
  }

  async countIn(organizationId: string | null): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(alertRules).where(ofScope(organizationId));
    return row?.n ?? 0;
  }

  async create(organizationId: string | null, form: AlertRuleForm, webhookSecret: string | null, createdBy: string | null): Promise<AlertRuleRow> {
    const [row] = await this.db
      .insert(alertRules)
      .values({ organizationId, ...this.fields(form), webhookSecret, createdBy })
      .returning();
    return row!;
  }

  /** `webhookSecret` undefined keeps the one it has; saving switches a webhook that was off on again. */
  async update(rule: AlertRuleRow, form: AlertRuleForm, webhookSecret: string | null | undefined): Promise<AlertRuleRow | undefined> {
    const [row] = await this.db
      .update(alertRules)
      .set({ ...this.fields(form), ...(webhookSecret === undefined ? {} : { webhookSecret }), webhookFailingSince: null, webhookDisabledAt: null })
      .where(eq(alertRules.id, rule.id))
      .returning();
    return row;
  }

  private fields(form: AlertRuleForm) {
    return {
      name: form.name,
      enabled: form.enabled,
      condition: form.condition,
      devices: form.devices,
      notifyConsole: form.notify.console,
      emails: form.notify.emails,
      webhookUrl: form.webhookUrl,
    };
  }

  async remove(ruleId: string): Promise<boolean> {
    return (await this.db.delete(alertRules).where(eq(alertRules.id, ruleId)).returning({ id: alertRules.id })).length > 0;
  }

  enabledRules(): Promise<AlertRuleRow[]> {
    return this.db.select().from(alertRules).where(eq(alertRules.enabled, true)).orderBy(asc(alertRules.id));
  }

  /** What every event of `rule` says besides its type and summary: the rule, its organization by name (none for a realm rule), the devices. */
  async eventBody(tx: DbExecutor, rule: AlertRuleRow, found: Found = { count: 0, listed: [] }): Promise<NewEvent['body']> {
    let organization: NewEvent['body']['organization'] = null;
    if (rule.organizationId) {
      const [row] = await tx.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, rule.organizationId));
      organization = { id: rule.organizationId, name: row?.name ?? '' };
    }
    return { rule: { id: rule.id, name: rule.name }, organization, count: found.count, devices: found.listed };
  }

  /**
   * Watched devices seen offline for the first time this round are noted as pending, from now (a
   * device's last answer is not when it went offline: an idle agent answers rarely). Devices never
   * heard from are not watched: they were never installed.
   */
  async offlineNoted(tx: DbExecutor, rule: AlertRuleRow, now: Date): Promise<void> {
    await this.enter(tx, rule, now, { key: sql`''`, value: PENDING, where: and(eq(devices.online, false), isNotNull(devices.lastResponse)) });
  }

  /**
   * Pending devices offline for more than `minutes`, counted from when they were first seen offline
   * or their last answer, whichever is later (a device that came and went between two rounds starts
   * again): marked as said in one statement, so each outage is said once.
   */
  async offlineEnter(tx: DbExecutor, rule: AlertRuleRow, minutes: number, now: Date): Promise<Found> {
    const cutoff = new Date(now.getTime() - minutes * 60_000).toISOString();
    const s = alertRuleStates;
    const marked = await tx
      .update(s)
      .set({ value: ALERTED })
      .from(devices)
      .where(
        and(
          eq(s.ruleId, rule.id),
          eq(s.value, PENDING),
          eq(devices.id, s.deviceId),
          eq(devices.online, false),
          sql`greatest(${s.since}, coalesce(${devices.lastResponse}, ${s.since})) <= ${cutoff}::timestamptz`,
        ),
      )
      .returning({ id: s.deviceId });
    return this.found(tx, marked.map((m) => m.id));
  }

  /** Devices the rule noted offline that are online again: forgotten; answers those it had said were offline (back online is news only for them). */
  async offlineLeave(tx: DbExecutor, rule: AlertRuleRow): Promise<Found> {
    const back = tx.select({ id: devices.id }).from(devices).where(eq(devices.online, true));
    const gone = await tx
      .delete(alertRuleStates)
      .where(and(eq(alertRuleStates.ruleId, rule.id), inArray(alertRuleStates.deviceId, back)))
      .returning({ id: alertRuleStates.deviceId, value: alertRuleStates.value });
    return this.found(tx, gone.filter((g) => g.value === ALERTED).map((g) => g.id));
  }

  /** Drives of watched devices at least `percent` full that the rule has not said so of yet (one per drive, by its root). */
  async driveFullEnter(tx: DbExecutor, rule: AlertRuleRow, percent: number, now: Date): Promise<Found> {
    const drive = sql`drive`;
    const where = and(sql`${usedPercent(drive)} >= ${percent}`, sql`${drive}->>'root' is not null`);
    return this.found(tx, await this.enter(tx, rule, now, { key: sql`${drive}->>'root'`, where, drives: drive }));
  }

  /** Drives the rule said were full that are not any more (or are gone): forgotten, without an event. */
  async driveFullLeave(tx: DbExecutor, rule: AlertRuleRow, percent: number): Promise<void> {
    await tx.delete(alertRuleStates).where(
      and(
        eq(alertRuleStates.ruleId, rule.id),
        sql`not exists (select 1 from ${devices}, jsonb_array_elements(${devices.drives}) as drive
          where ${devices.id} = ${alertRuleStates.deviceId} and drive->>'root' = ${alertRuleStates.key} and ${usedPercent(sql`drive`)} >= ${percent})`,
      ),
    );
  }

  /**
   * Monitors of watched devices (of that name, or any) whose value differs from the one the rule
   * last saw: the new values kept, and answered, except a monitor's first value (nothing changed yet).
   */
  async monitorChanges(tx: DbExecutor, rule: AlertRuleRow, monitor: string | null, now: Date): Promise<{ deviceId: string; key: string; value: string | null }[]> {
    const scope = watched(rule);
    const changed = await tx.execute<{ device_id: string; key: string; value: string | null; changed: boolean }>(sql`
      insert into alert_rule_states (rule_id, device_id, key, value, since)
      select ${rule.id}::uuid, m.device_id, m.name, m.value, ${now.toISOString()}::timestamptz
      from monitors m join ${devices} on ${devices.id} = m.device_id join ${deviceSearch} on ${deviceSearch.deviceId} = ${devices.id}
      where m.value is not null ${monitor ? sql`and m.name = ${monitor}` : sql``} ${scope ? sql`and ${scope}` : sql``}
      on conflict (rule_id, device_id, key) do update set value = excluded.value, since = excluded.since
        where alert_rule_states.value is distinct from excluded.value
      returning device_id, key, value, (xmax <> 0) as changed`);
    return changed.rows.filter((r) => r.changed).map((r) => ({ deviceId: r.device_id, key: r.key, value: r.value }));
  }

  /** Job results that failed on watched devices in (from, to]. */
  jobFailures(tx: DbExecutor, rule: AlertRuleRow, from: Date, to: Date) {
    return tx
      .select({ deviceId: devices.id, deviceName: devices.name, job: jobs.commandName })
      .from(jobResults)
      .innerJoin(jobRuns, eq(jobRuns.id, jobResults.runId))
      .innerJoin(jobs, eq(jobs.id, jobRuns.jobId))
      .innerJoin(devices, eq(devices.id, jobResults.deviceId))
      .innerJoin(deviceSearch, eq(deviceSearch.deviceId, devices.id))
      .where(and(watched(rule), eq(jobResults.state, 'failed'), gt(jobResults.finishedAt, from), lte(jobResults.finishedAt, to)))
      .orderBy(asc(devices.name), asc(devices.id));
  }

  /** Watched devices whose agent update (a rollout's) failed in (from, to]. */
  updateFailures(tx: DbExecutor, rule: AlertRuleRow, from: Date, to: Date): Promise<NamedDevice[]> {
    return tx
      .selectDistinct({ id: devices.id, name: devices.name })
      .from(rolloutDevices)
      .innerJoin(devices, eq(devices.id, rolloutDevices.deviceId))
      .innerJoin(deviceSearch, eq(deviceSearch.deviceId, devices.id))
      .where(and(watched(rule), eq(rolloutDevices.state, 'failed'), gt(rolloutDevices.changedAt, from), lte(rolloutDevices.changedAt, to)))
      .orderBy(asc(devices.name), asc(devices.id));
  }

  /** Rollouts that halted by themselves in (from, to], from the audit trail. */
  rolloutHalts(tx: DbExecutor, from: Date, to: Date) {
    return tx
      .select({ details: auditEntries.details, time: auditEntries.time })
      .from(auditEntries)
      .where(and(eq(auditEntries.kind, 'rollout.halt'), gt(auditEntries.time, from), lte(auditEntries.time, to)))
      .orderBy(asc(auditEntries.time));
  }

  /** Conditions on things that happened are read up to `to`: the next round starts there. */
  async setCursor(tx: DbExecutor, ruleId: string, to: Date): Promise<void> {
    await tx.update(alertRules).set({ cursorAt: to }).where(eq(alertRules.id, ruleId));
  }

  /**
   * Marks what the rule now says of the watched devices `where` holds for (per drive, with `drives`:
   * one row per element of the device's drives, named by that alias), unless it said so already;
   * answers the devices newly marked.
   */
  private async enter(tx: DbExecutor, rule: AlertRuleRow, now: Date, o: { key: SQL; where: SQL | undefined; value?: string; drives?: SQL }): Promise<string[]> {
    const rows = tx
      .select({
        ruleId: sql`${rule.id}::uuid`.as('rule_id'),
        deviceId: devices.id,
        key: sql<string>`${o.key}`.as('key'),
        value: sql`${o.value ?? null}::text`.as('value'),
        since: sql`${now.toISOString()}::timestamptz`.as('since'),
      })
      .from(devices)
      .innerJoin(deviceSearch, eq(deviceSearch.deviceId, devices.id));
    const perDrive = o.drives ? rows.innerJoin(sql`jsonb_array_elements(${devices.drives}) as ${o.drives}`, sql`true`) : rows;
    const marked = await tx.insert(alertRuleStates).select(perDrive.where(and(watched(rule), o.where))).onConflictDoNothing().returning({ id: alertRuleStates.deviceId });
    return marked.map((m) => m.id);
  }

  /** The count of distinct devices, and the first of them by name. */
  async found(tx: DbExecutor, ids: string[]): Promise<Found> {
    const unique = [...new Set(ids)];
    if (!unique.length) return { count: 0, listed: [] };
    const listed = await tx
      .select({ id: devices.id, name: devices.name })
      .from(devices)
      .where(inArray(devices.id, unique))
      .orderBy(asc(devices.name), asc(devices.id))
      .limit(alertLimits.devicesListed);
    return { count: unique.length, listed };
  }

  /**
   * Records an event of `rule`, its deliveries (its webhook when on, each mail address) due now, and
   * its place in the bell of each person who hears it there. `claim` (a test): the webhook's delivery
   * is the caller's to send now; nothing else is made.
   */
  async addEvent(
    tx: DbExecutor,
    rule: AlertRuleRow,
    event: NewEvent,
    now: Date,
    o: { claim?: boolean; toOwners?: boolean } = {},
  ): Promise<{ eventId: string; deliveryIds: string[]; listeners: string[] }> {
    // The id is made here, since the body it is sent in names it.
    const id = randomUUID();
    const body: AlertWebhookBody = { id, type: event.type, summary: event.summary, time: now.toISOString(), ...event.body };
    await tx.insert(alertEvents).values({ id, ruleId: rule.id, type: event.type, summary: event.summary, body, createdAt: now });
    const targets: { channel: 'WEBHOOK' | 'EMAIL'; target: string }[] = [];
    if (rule.webhookUrl && (o.claim || !rule.webhookDisabledAt)) targets.push({ channel: 'WEBHOOK', target: rule.webhookUrl });
    if (!o.claim) targets.push(...rule.emails.map((target) => ({ channel: 'EMAIL' as const, target })));
    const deliveries = targets.length
      ? await tx
          .insert(alertDeliveries)
          .values(
            targets.map((t) => ({
              eventId: id,
              ruleId: rule.id,
              ...t,
              state: 'PENDING' as const,
              attempts: o.claim ? 1 : 0,
              nextAttemptAt: o.claim ? new Date(now.getTime() + CLAIM_LEASE_SECONDS * 1000) : now,
              createdAt: now,
            })),
          )
          .returning({ id: alertDeliveries.id })
      : [];
    // `toOwners`: news about the rule itself (its webhook was switched off) reaches its owners' bells even when it does not use the bell.
    const listeners = (rule.notifyConsole || o.toOwners) && !o.claim ? await this.listeners(tx, rule.organizationId) : [];
    if (listeners.length) await tx.insert(alertInbox).values(listeners.map((username) => ({ eventId: id, username, createdAt: now })));
    return { eventId: id, deliveryIds: deliveries.map((d) => d.id), listeners };
  }

  /** Who hears an organization's alerts in the console: its CREATOR and ADMINs; a realm rule's: the realm ADMINs who signed in. */
  async listeners(tx: DbExecutor, organizationId: string | null): Promise<string[]> {
    if (!organizationId) {
      const admins = await tx.select({ username: users.username }).from(users).where(isRealmAdmin);
      return [...new Set(admins.map((a) => a.username))];
    }
    const managers = await tx
      .select({ email: organizationMembers.email })
      .from(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, organizationId), manages));
    return [...new Set(managers.map((m) => m.email.toLowerCase()))];
  }

  /** Due deliveries, claimed for this console for a lease (a console that dies mid-send leaves them to a later round). */
  async claimDue(now: Date, limit: number): Promise<ClaimedDelivery[]> {
    return this.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: alertDeliveries.id })
        .from(alertDeliveries)
        .where(and(eq(alertDeliveries.state, 'PENDING'), lte(alertDeliveries.nextAttemptAt, now)))
        .orderBy(asc(alertDeliveries.nextAttemptAt))
        .limit(limit)
        .for('update', { skipLocked: true });
      if (!due.length) return [];
      const ids = due.map((d) => d.id);
      await tx
        .update(alertDeliveries)
        .set({ attempts: sql`${alertDeliveries.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + CLAIM_LEASE_SECONDS * 1000) })
        .where(inArray(alertDeliveries.id, ids));
      return this.claimed(tx, ids);
    });
  }

  /** Deliveries with what they send. */
  claimed(tx: DbExecutor, ids: string[]): Promise<ClaimedDelivery[]> {
    return tx
      .select({ delivery: alertDeliveries, body: alertEvents.body, sealedSecret: alertRules.webhookSecret })
      .from(alertDeliveries)
      .innerJoin(alertEvents, eq(alertEvents.id, alertDeliveries.eventId))
      .innerJoin(alertRules, eq(alertRules.id, alertDeliveries.ruleId))
      .where(inArray(alertDeliveries.id, ids))
      .orderBy(asc(alertDeliveries.createdAt));
  }

  /** A delivery's attempt ended: delivered, to be tried again at `nextAttemptAt`, or given up. */
  async recordAttempt(
    id: string,
    result: { state: DeliveryRow['state']; status?: number; latencyMs: number; error?: string; nextAttemptAt: Date | null },
  ): Promise<void> {
    await this.db
      .update(alertDeliveries)
      .set({ state: result.state, lastStatus: result.status ?? null, lastLatencyMs: result.latencyMs, lastError: result.error ?? null, nextAttemptAt: result.nextAttemptAt })
      .where(eq(alertDeliveries.id, id));
  }

  /** The webhook answered: it is not failing. */
  async webhookWorks(ruleId: string): Promise<void> {
    await this.db.update(alertRules).set({ webhookFailingSince: null }).where(and(eq(alertRules.id, ruleId), isNotNull(alertRules.webhookFailingSince)));
  }

  /** The webhook failed at `now`: answers since when it has been failing. */
  async webhookFails(ruleId: string, now: Date): Promise<Date> {
    const [row] = await this.db
      .update(alertRules)
      .set({ webhookFailingSince: sql`coalesce(${alertRules.webhookFailingSince}, ${now.toISOString()}::timestamptz)` })
      .where(eq(alertRules.id, ruleId))
      .returning({ since: alertRules.webhookFailingSince });
    return row?.since ?? now;
  }

  /** Switches a webhook that failed for too long off and gives up its pending deliveries; answers the rule when this call did it. */
  async disableWebhook(ruleId: string, now: Date): Promise<AlertRuleRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [rule] = await tx
        .update(alertRules)
        .set({ webhookDisabledAt: now })
        .where(and(eq(alertRules.id, ruleId), isNull(alertRules.webhookDisabledAt)))
        .returning();
      if (!rule) return undefined;
      await tx
        .update(alertDeliveries)
        .set({ state: 'FAILED', nextAttemptAt: null, lastError: 'The webhook was switched off after failing for 24 hours.' })
        .where(and(eq(alertDeliveries.ruleId, ruleId), eq(alertDeliveries.channel, 'WEBHOOK'), eq(alertDeliveries.state, 'PENDING')));
      return rule;
    });
  }

  /** The newest deliveries of a rule, with their events' summaries. */
  deliveries(ruleId: string, id?: string) {
    return this.db
      .select({ delivery: alertDeliveries, type: alertEvents.type, summary: alertEvents.summary })
      .from(alertDeliveries)
      .innerJoin(alertEvents, eq(alertEvents.id, alertDeliveries.eventId))
      .where(and(eq(alertDeliveries.ruleId, ruleId), id ? eq(alertDeliveries.id, id) : undefined))
      .orderBy(desc(alertDeliveries.createdAt), desc(alertDeliveries.id))
      .limit(alertLimits.deliveriesListed);
  }

  /**
   * A person's bell: the unread count, and the newest alerts. Only those they may still read: of an
   * organization they still manage, or the realm's while they are a realm ADMIN (a manager removed
   * since no longer reads its alerts).
   */
  async inbox(username: string) {
    const theirs = and(eq(alertInbox.username, username), this.stillTheirs(username));
    const [unread] = await this.db
      .select({ n: count() })
      .from(alertInbox)
      .innerJoin(alertEvents, eq(alertEvents.id, alertInbox.eventId))
      .where(and(theirs, isNull(alertInbox.readAt)));
    const items = await this.db
      .select({ id: alertEvents.id, type: alertEvents.type, summary: alertEvents.summary, body: alertEvents.body, createdAt: alertEvents.createdAt, readAt: alertInbox.readAt })
      .from(alertInbox)
      .innerJoin(alertEvents, eq(alertEvents.id, alertInbox.eventId))
      .where(theirs)
      .orderBy(desc(alertInbox.createdAt), desc(alertInbox.eventId))
      .limit(alertLimits.inboxListed);
    return { unread: unread?.n ?? 0, items };
  }

  /** The event's rule is of an organization `username` manages now, or the realm's and they are a realm ADMIN now. */
  private stillTheirs(username: string): SQL {
    // The same tests as `listeners`, asked of one person.
    return sql`exists (select 1 from ${alertRules} where ${alertRules.id} = ${alertEvents.ruleId} and (
      (${alertRules.organizationId} is null and exists (select 1 from ${users} where ${users.username} = ${username} and ${isRealmAdmin}))
      or exists (select 1 from ${organizationMembers} where ${organizationMembers.organizationId} = ${alertRules.organizationId} and lower(${organizationMembers.email}) = ${username} and ${manages})))`;
  }

  /** Marks a person's alerts read: those of `ids`, or all. */
  async markRead(username: string, ids: string[] | undefined, now: Date): Promise<void> {
    await this.db
      .update(alertInbox)
      .set({ readAt: now })
      .where(and(eq(alertInbox.username, username), isNull(alertInbox.readAt), ids ? inArray(alertInbox.eventId, ids) : undefined));
  }
}
