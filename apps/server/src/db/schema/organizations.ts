import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  type: text('type', { enum: ['PERSONAL', 'COMPANY'] }).notNull(),
  name: text('name').notNull(),
  country: text('country'),
  address: text('address'),
  telephone: text('telephone'),
  email: text('email'),
  vat: text('vat'),
  /** Subject of the user whose personal organization this is (created on first sign-in). */
  personalOf: text('personal_of').unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Membership is by email: the signed-in username is matched against it (SPEC §6). */
export const organizationMembers = pgTable(
  'organization_members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: ['CREATOR', 'ADMIN', 'USER'] }).notNull(),
    requestDate: timestamp('request_date', { withTimezone: true }).notNull().defaultNow(),
    /** 'OIDC_ORG_MAP' when the identity provider's groups made or changed it: the map may take it away again. */
    grantedBy: text('granted_by'),
  },
  (t) => [
    uniqueIndex('organization_members_org_email_idx').on(t.organizationId, t.email),
    index('organization_members_email_idx').on(t.email),
  ],
);

export const organizationDomains = pgTable(
  'organization_domains',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Several organizations may claim a name; the one that proves it (TXT record) holds it alone. */
    domain: text('domain').notNull(),
    status: text('status', { enum: ['PENDING', 'ACTIVE', 'FAILED'] }).notNull().default('PENDING'),
    statusReason: text('status_reason'),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    checkCount: integer('check_count').notNull().default(0),
    creationDate: timestamp('creation_date', { withTimezone: true }).notNull().defaultNow(),
    /** The value this organization's TXT record `_fleetlink-challenge.{domain}` must hold. */
    challengeToken: text('challenge_token').notNull().default(sql`replace(gen_random_uuid()::text, '-', '')`),
    /** When the TXT record proved the domain this organization's; null until then. */
    provenAt: timestamp('proven_at', { withTimezone: true }),
  },
  (t) => [
    index('organization_domains_org_idx').on(t.organizationId),
    uniqueIndex('organization_domains_org_domain_idx').on(t.organizationId, t.domain),
    uniqueIndex('organization_domains_proven_idx').on(t.domain).where(sql`${t.provenAt} is not null`),
  ],
);
