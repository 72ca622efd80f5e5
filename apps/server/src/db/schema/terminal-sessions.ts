import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { devices } from './devices.js';

/**
 * Web terminal sessions (issue 63), shared by every console on the database:
 * - the relay's single-use token (its SHA-256 only), claimed once with one conditional UPDATE by
 *   whichever console the agent's relay reaches, and only with that device's account;
 * - `peer_url`, where the console holding the page's socket takes a relay that reached another
 *   console (DESIGN §5b: no sticky load balancer);
 * - the per-device cap: sessions not ended whose console still renews `alive_at` (a console that
 *   died leaves rows that stop counting within minutes).
 * A deleted device takes its rows with it.
 */
export const terminalSessions = pgTable(
  'terminal_sessions',
  {
    id: uuid('id').primaryKey(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    username: text('username').notNull(),
    relayTokenHash: text('relay_token_hash').notNull(),
    relayExpiresAt: timestamp('relay_expires_at', { withTimezone: true }).notNull(),
    relayClaimedAt: timestamp('relay_claimed_at', { withTimezone: true }),
    peerUrl: text('peer_url').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    aliveAt: timestamp('alive_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [index('terminal_sessions_open_idx').on(t.deviceId).where(sql`ended_at IS NULL`)],
);
