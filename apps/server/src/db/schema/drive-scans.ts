import { jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { DiskUsage } from '@fleetlink/contract';
import { devices } from './devices.js';

/**
 * The last scan of each drive of a device (SPEC §3 drive detail). Apart from `devices.drives`,
 * which every properties report replaces: a scan outlives the reports that come while it runs.
 */
export const driveScans = pgTable(
  'drive_scans',
  {
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** The drive's root, as the agent reports it. */
    root: text('root').notNull(),
    status: text('status', { enum: ['BUSY', 'DONE', 'FAILED'] }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    result: jsonb('result').$type<DiskUsage>(),
    error: text('error'),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.root] })],
);
