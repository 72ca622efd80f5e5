import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Keys the console makes for itself on first start and every instance of one database must share:
 * the built-in provider's signing and cookie keys (`idp-keys`), the CAPTCHA's HMAC key
 * (`captcha-hmac`). Until migration 0016 this was `idp_secrets`.
 */
export const consoleSecrets = pgTable('console_secrets', {
  name: text('name').primaryKey(),
  value: jsonb('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
