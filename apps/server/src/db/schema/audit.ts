import type { AuditFilter } from '@fleetlink/contract';
import { sql } from 'drizzle-orm';
import { bigint, index, json, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The audit trail: append-only (a trigger refuses UPDATE, DELETE and TRUNCATE, see migration 0005).
 * No foreign keys: an entry outlives the device and organization it names, so it keeps their names
 * as they were. Every filter has an index ending in (time, id), the order pages are read in, so a
 * deep page costs what the first one does.
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Set by the console in milliseconds, the precision of the page cursor. */
    time: timestamp('time', { withTimezone: true, precision: 3 }).notNull(),
    username: text('username'),
    subject: text('subject'),
    clientAddress: text('client_address'),
    kind: text('kind').notNull(),
    organizationId: uuid('organization_id'),
    organizationName: text('organization_name'),
    deviceId: uuid('device_id'),
    deviceName: text('device_name'),
    /** json, not jsonb: the fields keep the order they were written in, which is the order they read best. */
    details: json('details').$type<Record<string, unknown>>().notNull().default({}),
    outcome: text('outcome', { enum: ['ok', 'error'] }).notNull(),
    error: text('error'),
  },
  (t) => [
    index('audit_time_idx').on(t.time.desc(), t.id.desc()),
    index('audit_organization_idx').on(t.organizationId, t.time.desc(), t.id.desc()),
    index('audit_device_idx').on(t.deviceId, t.time.desc(), t.id.desc()),
    index('audit_device_name_idx').on(sql`lower(${t.deviceName})`, t.time.desc(), t.id.desc()),
    index('audit_username_idx').on(t.username, t.time.desc(), t.id.desc()),
    index('audit_kind_idx').on(t.kind, t.time.desc(), t.id.desc()),
    index('audit_outcome_idx').on(t.outcome, t.time.desc(), t.id.desc()),
  ],
);

/**
 * A one-time link to a CSV export of the audit trail (the browser opens it and saves the file as it
 * streams, with no bearer token). Bound to what its creator was allowed to read when it was made:
 * one organization's entries, or all of them (organization null), with their filter. The token is
 * kept as a SHA-256 hash only, and the link is claimed once by one conditional UPDATE, so several
 * consoles on one database serve it exactly once.
 */
export const auditExports = pgTable('audit_exports', {
  id: uuid('id').primaryKey(),
  tokenHash: text('token_hash').notNull(),
  organizationId: uuid('organization_id'),
  filter: json('filter').$type<AuditFilter>().notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/**
 * How far the audit trail was forwarded to the operator's syslog collector (issue 66,
 * AUDIT_SYSLOG_URL): the trail itself is the queue, in the order of its ids, and this its read
 * position, so a collector that was away gets what it missed, in order, from whichever console.
 */
export const auditForwarding = pgTable('audit_forwarding', {
  /** The collector, as configured (its URL without credentials): a new collector starts afresh. */
  target: text('target').primaryKey(),
  lastId: bigint('last_id', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
