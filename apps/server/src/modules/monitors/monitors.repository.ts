import type { Monitor, MonitorDefinition, MonitorForm, MonitorReading } from '@fleetlink/contract';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { monitorListRevisions, monitors } from '../../db/schema/index.js';

const rowColumns = {
  id: monitors.id,
  name: monitors.name,
  type: monitors.type,
  path: monitors.path,
  value: monitors.value,
  note: monitors.note,
  observedAt: monitors.observedAt,
};

/** A monitor in a device answer's JSON sub-select: its reading's time as PostgreSQL writes it. */
export type MonitorRow = Omit<Monitor, 'observedAt'> & { observedAt: string | null };

/** A monitor as selected: its reading's time as a Date. */
export type MonitorRecord = Omit<Monitor, 'observedAt'> & { observedAt: Date | null };

/** A monitor as the API answers it, from either shape. */
export const toMonitor = (m: MonitorRow | MonitorRecord): Monitor => ({ ...m, observedAt: m.observedAt ? new Date(m.observedAt).toISOString() : null });

/** The SQL of monitors: their definitions, and the readings agents report. */
export class MonitorsRepository {
  constructor(private readonly db: Db) {}

  async find(deviceId: string, id: string): Promise<MonitorRecord | undefined> {
    const [row] = await this.db
      .select(rowColumns)
      .from(monitors)
      .where(and(eq(monitors.deviceId, deviceId), eq(monitors.id, id)));
    return row;
  }

  /** Which of these devices have monitors: one statement for a batch of devices coming online. */
  async withMonitors(deviceIds: string[]): Promise<string[]> {
    if (!deviceIds.length) return [];
    const rows = await this.db
      .selectDistinct({ id: monitors.deviceId })
      .from(monitors)
      .where(sql`${monitors.deviceId} = any(${sql.param(deviceIds)}::uuid[])`);
    return rows.map((r) => r.id);
  }

  async countOf(deviceId: string): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(monitors).where(eq(monitors.deviceId, deviceId));
    return row?.n ?? 0;
  }

  async insert(deviceId: string, form: MonitorForm): Promise<MonitorRecord> {
    const [row] = await this.db.insert(monitors).values({ deviceId, ...form }).returning(rowColumns);
    return row!;
  }

  /** A new definition: a reading of the old one no longer holds, so it goes with it. */
  async update(deviceId: string, id: string, form: MonitorForm): Promise<MonitorRecord | undefined> {
    const [row] = await this.db
      .update(monitors)
      .set({
        ...form,
        value: sql`case when ${monitors.type} = ${form.type} and ${monitors.path} = ${form.path} then ${monitors.value} end`,
        note: sql`case when ${monitors.type} = ${form.type} and ${monitors.path} = ${form.path} then ${monitors.note} end`,
        observedAt: sql`case when ${monitors.type} = ${form.type} and ${monitors.path} = ${form.path} then ${monitors.observedAt} end`,
      })
      .where(and(eq(monitors.deviceId, deviceId), eq(monitors.id, id)))
      .returning(rowColumns);
    return row;
  }

  /** The monitor removed, or undefined when there was none. */
  async delete(deviceId: string, id: string): Promise<MonitorRecord | undefined> {
    const [row] = await this.db
      .delete(monitors)
      .where(and(eq(monitors.deviceId, deviceId), eq(monitors.id, id)))
      .returning(rowColumns);
    return row;
  }

  /**
   * The list to send the device, with its revision: drawn before the list is read, so a list with
   * a higher revision was read later and holds every change the lower one holds.
   */
  async listForAgent(deviceId: string): Promise<{ revision: number; monitors: MonitorDefinition[] }> {
    const result = await this.db.execute<{ revision: string }>(sql`select nextval(${monitorListRevisions.seqName}) as revision`);
    const revision = Number(result.rows[0]!.revision);
    const rows = await this.db
      .select({ id: monitors.id, type: monitors.type, path: monitors.path })
      .from(monitors)
      .where(eq(monitors.deviceId, deviceId))
      .orderBy(asc(monitors.createdAt));
    return { revision, monitors: rows };
  }

  /**
   * Readings an agent reported, in one statement. Each names the definition it read: one whose
   * monitor was changed or removed since touches nothing.
   */
  async recordReadings(deviceId: string, readings: MonitorReading[], at: Date): Promise<void> {
    if (!readings.length) return;
    const values = sql.join(
      readings.map((r) => sql`(${r.id}, ${r.type}, ${r.path}, ${r.value}::text, ${r.note}::text)`),
      sql`, `,
    );
    await this.db.execute(sql`
      update ${monitors} set value = v.value, note = v.note, observed_at = ${at.toISOString()}::timestamptz
      from (values ${values}) as v(id, type, path, value, note)
      where ${monitors.deviceId} = ${deviceId}::uuid and ${monitors.id}::text = v.id
        and ${monitors.type} = v.type and ${monitors.path} = v.path`);
  }
}
