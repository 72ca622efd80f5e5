import type { AuditCursor, AuditFilter, AuditKind, AuditOutcome } from '@fleetlink/contract';
import { and, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditEntries, devices, organizations } from '../../db/schema/index.js';

export type AuditRow = typeof auditEntries.$inferSelect;

export interface AuditInsert {
  time: Date;
  username: string | null;
  subject: string | null;
  clientAddress: string | null;
  kind: AuditKind;
  organizationId: string | null;
  deviceId: string | null;
  /** Names taken before the action (a delete); otherwise the names the device and organization have now. */
  organizationName?: string | null;
  deviceName?: string | null;
  details: Record<string, unknown>;
  outcome: AuditOutcome;
  error: string | null;
}

/** Whose entries a reader sees: all of them (operator), or one organization's. */
export interface AuditScope {
  organizationId?: string;
}

/** The names an entry keeps; read before a delete, since nothing is left to read afterwards. */
export interface AuditNames {
  organizationId?: string | null;
  organizationName?: string | null;
  deviceName?: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const a = auditEntries;

/**
 * SQL of the audit trail. Appends and reads only: there is deliberately no update or delete here,
 * and the database refuses both anyway.
 */
export class AuditRepository {
  constructor(private readonly db: Db) {}

  /**
   * Writes one entry in one statement, naming the device and its organization as they are at this
   * moment (names given by the caller win: a deleted device has none left to look up).
   */
  async append(e: AuditInsert): Promise<void> {
    await this.db.execute(sql`
      insert into ${auditEntries} (time, username, subject, client_address, kind, organization_id, organization_name, device_id, device_name, details, outcome, error)
      select ${e.time.toISOString()}::timestamptz, ${e.username}, ${e.subject}, ${e.clientAddress}, ${e.kind},
        coalesce(d.organization_id, ${e.organizationId}::uuid), coalesce(${e.organizationName ?? null}, o.name),
        ${e.deviceId}::uuid, coalesce(${e.deviceName ?? null}, d.name),
        ${JSON.stringify(e.details)}::json, ${e.outcome}, ${e.error}
      from (select 1) as one
      left join ${devices} d on d.id = ${e.deviceId}::uuid
      left join ${organizations} o on o.id = coalesce(d.organization_id, ${e.organizationId}::uuid)`);
  }

  /**
   * One page, newest first, starting after `cursor`. Keyset paging on (time, id): each filter has
   * an index ending in those columns, so page 500 costs what page 1 does.
   */
  page(scope: AuditScope, filter: AuditFilter, cursor: AuditCursor | undefined, limit: number): Promise<AuditRow[]> {
    const where = conditions(scope, filter);
    if (cursor) where.push(sql`(${a.time}, ${a.id}) < (${cursor.time.toISOString()}::timestamptz, ${cursor.id}::bigint)`);
    return this.db
      .select()
      .from(a)
      .where(and(...where))
      .orderBy(sql`${a.time} desc nulls last`, sql`${a.id} desc nulls last`)
      .limit(limit);
  }

  /** A device's name, and its organization's id and name, as they are now. */
  async deviceNames(deviceId: string): Promise<AuditNames> {
    const [row] = await this.db
      .select({ deviceName: devices.name, organizationId: organizations.id, organizationName: organizations.name })
      .from(devices)
      .innerJoin(organizations, eq(organizations.id, devices.organizationId))
      .where(eq(devices.id, deviceId));
    return row ?? {};
  }

  async organizationNames(organizationId: string): Promise<AuditNames> {
    const [row] = await this.db.select({ organizationName: organizations.name }).from(organizations).where(eq(organizations.id, organizationId));
    return row ?? {};
  }
}

function conditions(scope: AuditScope, f: AuditFilter): SQL[] {
  const where: SQL[] = [];
  if (scope.organizationId) where.push(eq(a.organizationId, scope.organizationId));
  if (f.who) where.push(eq(a.username, f.who));
  // Entries outlive devices, so a device is found by its id or by the name it had.
  if (f.device) where.push(UUID.test(f.device) ? eq(a.deviceId, f.device) : sql`lower(${a.deviceName}) = lower(${f.device})`);
  if (f.kind) where.push(eq(a.kind, f.kind));
  if (f.outcome) where.push(eq(a.outcome, f.outcome));
  if (f.from) where.push(gte(a.time, new Date(f.from)));
  if (f.to) where.push(lte(a.time, new Date(f.to)));
  return where;
}
