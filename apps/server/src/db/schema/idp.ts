import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Storage of the built-in OIDC provider (sessions, grants, codes, refresh tokens, interactions), one
 * table for every model as oidc-provider's adapter contract expects, so sign-ins survive restarts.
 */
export const idpPayloads = pgTable(
  'idp_payloads',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('idp_payloads_grant_id_idx').on(t.grantId),
    index('idp_payloads_uid_idx').on(t.uid),
    index('idp_payloads_expires_at_idx').on(t.expiresAt),
  ],
);

/** Seeded accounts of the built-in provider; passwords are scrypt hashes. */
export const idpAccounts = pgTable('idp_accounts', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  passwordHash: text('password_hash').notNull(),
  realmRoles: text('realm_roles').array().notNull(),
});

/**
 * Failed sign-ins at the built-in provider, counted per typed login (`account:…`) and per client
 * address (`address:…`): the count decides how long the next attempt must wait.
 */
export const idpSignInFailures = pgTable('idp_sign_in_failures', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  lastFailure: timestamp('last_failure', { withTimezone: true }).notNull(),
});
