import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

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
  /** Null until an invited person chose a password: no password opens the account. */
  passwordHash: text('password_hash'),
  realmRoles: text('realm_roles').array().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
  /** Set while an ADMIN keeps the account from signing in: its tokens stop at once (issue 72). */
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  /** The TOTP secret, sealed (SecretBox), while two-factor authentication is on. */
  totpSecret: text('totp_secret'),
  totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
  /** The time step of the last code accepted: a code opens once, even within its 30 seconds. */
  totpLastStep: bigint('totp_last_step', { mode: 'number' }),
  /** A secret shown for setting up, sealed, until a code from the app proves the app holds it. */
  totpPendingSecret: text('totp_pending_secret'),
});

/** An account's one-time recovery codes (issue 72), by hash; a used one keeps its row, marked. */
export const idpRecoveryCodes = pgTable(
  'idp_recovery_codes',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => idpAccounts.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.codeHash] })],
);

/** The realm's sign-in rules an ADMIN sets (issue 72): one row, shared by every console. */
export const idpSettings = pgTable('idp_settings', {
  id: integer('id').primaryKey().default(1),
  adminTwoFactorRequired: boolean('admin_two_factor_required').notNull().default(false),
});

/**
 * The links mailed for an account (issue 72): an invitation to choose a first password (7 days),
 * a password reset (1 hour). Only the token's hash is kept; a link opens once.
 */
export const idpAccountLinks = pgTable(
  'idp_account_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => idpAccounts.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['invitation', 'reset'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('idp_account_links_account_idx').on(t.accountId)],
);

/**
 * Failed sign-ins at the built-in provider, counted per typed login (`account:…`) and per client
 * address (`address:…`): the count decides how long the next attempt must wait.
 */
export const idpSignInFailures = pgTable('idp_sign_in_failures', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  lastFailure: timestamp('last_failure', { withTimezone: true }).notNull(),
});
