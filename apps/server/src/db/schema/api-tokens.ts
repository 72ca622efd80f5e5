import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Personal API tokens (issue 62). Only the secret's SHA-256 is kept; a revoked token keeps its row
 * so that its use is answered "revoked", not "unknown". The owner is the provider's subject: roles
 * and name are read from `users` (the owner's last sign-in) at every use.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerSubject: text('owner_subject').notNull(),
    name: text('name').notNull(),
    secretHash: text('secret_hash').notNull().unique(),
    scope: text('scope', { enum: ['READ', 'WRITE'] }).notNull(),
    /** Null: every organization the owner belongs to. */
    organizationIds: uuid('organization_ids').array(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    lastUsedAddress: text('last_used_address'),
  },
  (t) => [index('api_tokens_owner_idx').on(t.ownerSubject, t.createdAt)],
);

/** The addresses each token was used from: the first use from a new one is written to the audit trail. */
export const apiTokenAddresses = pgTable(
  'api_token_addresses',
  {
    tokenId: uuid('token_id')
      .notNull()
      .references(() => apiTokens.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    firstUsedAt: timestamp('first_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.address] })],
);
