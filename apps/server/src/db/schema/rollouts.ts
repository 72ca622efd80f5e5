import type { RolloutDeviceState, RolloutState, RolloutWave } from '@fleetlink/contract';
import { doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { devices } from './devices.js';
import { releases } from './releases.js';

/**
 * Staged rollouts (issue 65): at most one per release. Which wave a device is in is decided when the
 * rollout starts, by a hash of its id against `boundaries` (the hash of the last device of each
 * wave then); a device that appears later joins by the same rule, so no device ever changes wave.
 * Every console ticks the same rows: a rollout is evaluated by the console that holds its row lock
 * (FOR UPDATE SKIP LOCKED), so a wave starts once, and a console restarted mid-wait goes on from
 * `wave_started_at`.
 */
export const releaseRollouts = pgTable('release_rollouts', {
  releaseId: uuid('release_id')
    .primaryKey()
    .references(() => releases.id, { onDelete: 'cascade' }),
  state: text('state').$type<RolloutState>().notNull(),
  waves: jsonb('waves').$type<RolloutWave[]>().notNull(),
  /** Per wave, the largest device hash in it; the last wave takes every hash. */
  boundaries: jsonb('boundaries').$type<number[]>().notNull(),
  waitMinutes: doublePrecision('wait_minutes').notNull(),
  failurePercent: doublePrecision('failure_percent').notNull(),
  failureCount: integer('failure_count'),
  /** The latest wave started, from 1 (0: none, a release rolled back without waves). */
  wave: integer('wave').notNull(),
  waveStartedAt: timestamp('wave_started_at', { withTimezone: true }),
  /** Per wave, the failures a person accepted when resuming after a halt: only new ones count toward the threshold. */
  accepted: jsonb('accepted').$type<number[]>().notNull(),
  reason: text('reason'),
  createdBy: text('created_by').notNull(),
  createdBySubject: text('created_by_subject'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The devices of a rollout and how each fares: waiting (not offered yet, or offered and not started),
 * updating, running (it runs the release's agent bundle), failed (rolled back, refused, or not back
 * within the deadline; kept so even when the agent later reports otherwise).
 */
export const rolloutDevices = pgTable(
  'rollout_devices',
  {
    releaseId: uuid('release_id')
      .notNull()
      .references(() => releaseRollouts.releaseId, { onDelete: 'cascade' }),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    wave: integer('wave').notNull(),
    state: text('state').$type<RolloutDeviceState>().notNull().default('waiting'),
    reason: text('reason'),
    /** When the console first answered this device the release (its release check). */
    offeredAt: timestamp('offered_at', { withTimezone: true }),
    /** When the console asked it to check its release now (once: one offline then is asked when it is back online). */
    nudgedAt: timestamp('nudged_at', { withTimezone: true }),
    /** When it first downloaded one of the release's bundles: the download log. */
    downloadedAt: timestamp('downloaded_at', { withTimezone: true }),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.deviceId] }), index('rollout_devices_wave_idx').on(t.releaseId, t.wave, t.state), index('rollout_devices_device_idx').on(t.deviceId)],
);
