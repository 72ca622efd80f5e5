import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The request counters of the rate limits (enrollment per address, contact messages per account and
 * per address), one row per key and its current window: every console counts into the same row, so a
 * limit holds however many consoles the requests are spread over.
 */
export const rateLimitWindows = pgTable('rate_limit_windows', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  hits: integer('hits').notNull(),
});
