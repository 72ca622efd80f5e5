import { pgSequence, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { MonitorType } from '@fleetlink/contract';
import { devices } from './devices.js';

/**
 * Orders the monitor lists sent to agents (`monitors.set`): one number per list, drawn after the
 * change it carries was committed, so the agent can tell a late, older list from the newest one
 * even when several consoles send them.
 */
export const monitorListRevisions = pgSequence('monitor_list_revisions');

/**
 * What a device watches (SPEC §3 Monitor) and what its agent last read there. The reading is kept
 * with the monitor rather than in `devices.properties`, so an offline device shows its last values
 * and a reading of a path the monitor no longer has is never taken for the current one.
 */
export const monitors = pgTable(
  'monitors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').$type<MonitorType>().notNull(),
    path: text('path').notNull(),
    value: text('value'),
    note: text('note'),
    observedAt: timestamp('observed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('monitors_device_name_idx').on(t.deviceId, t.name)],
);
