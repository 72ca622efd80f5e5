import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** People seen in valid access tokens, keyed by the provider's subject. */
export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  subject: text('subject').notNull().unique(),
  username: text('username').notNull(),
  name: text('name'),
  email: text('email'),
  firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  /** The roles the console granted at the last sign-in: an API token acts with these (issue 62). */
  roles: text('roles').array().notNull().default([]),
});
