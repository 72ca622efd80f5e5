import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * When each device belonged to which organization: what invoices are prorated by. A device row is
 * deleted with the device, so this history is kept beside it, by triggers on `devices` (migration
 * 0015) that no writer can forget: a row opens when a device is created or moves to another
 * organization, and closes when it moves away or is deleted. No foreign keys: the history outlives
 * the device, and an invoice may be made for a month in which its devices are gone.
 */
export const deviceLifetimes = pgTable(
  'device_lifetimes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id').notNull(),
    organizationId: uuid('organization_id').notNull(),
    /** The device's name (kept current while the row is open): an invoice line names a device that may be gone. */
    deviceName: text('device_name').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    index('device_lifetimes_span_idx').on(t.startedAt, t.endedAt),
    uniqueIndex('device_lifetimes_open_idx').on(t.deviceId).where(sql`${t.endedAt} is null`),
  ],
);

/** Who an invoice is from or to, as they were when it was made (an invoice never changes afterwards). */
export interface InvoiceParty {
  name: string;
  address: string | null;
  country: string | null;
  vat: string | null;
  email: string | null;
}

/** One device's part of an invoice. */
export interface InvoiceLine {
  deviceId: string;
  deviceName: string;
  days: number;
  amountCents: number;
}

/**
 * An invoice for one organization and one month (`period`, `YYYY-MM`): made once (the unique index),
 * numbered gaplessly per year from `invoice_counters`, and never changed: seller and buyer are kept
 * as they were. Money is in integer euro cents. No foreign key to the organization: an invoice is
 * kept after its organization is deleted.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: text('number').notNull().unique(),
    organizationId: uuid('organization_id').notNull(),
    period: text('period').notNull(),
    invoiceDate: date('invoice_date', { mode: 'string' }).notNull(),
    seller: jsonb('seller').$type<InvoiceParty>().notNull(),
    buyer: jsonb('buyer').$type<InvoiceParty>().notNull(),
    lines: jsonb('lines').$type<InvoiceLine[]>().notNull(),
    /** The price of one device for a whole month. */
    unitPriceCents: integer('unit_price_cents').notNull(),
    daysInPeriod: integer('days_in_period').notNull(),
    netCents: bigint('net_cents', { mode: 'number' }).notNull(),
    /** Hundredths of a percent: 2100 is 21 %, 2550 is 25.5 %. */
    vatRateBp: integer('vat_rate_bp').notNull(),
    reverseCharge: boolean('reverse_charge').notNull(),
    vatCents: bigint('vat_cents', { mode: 'number' }).notNull(),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoices_org_period_idx').on(t.organizationId, t.period),
    index('invoices_org_date_idx').on(t.organizationId, t.invoiceDate.desc()),
  ],
);

/** The last invoice number given per year; taken in the transaction that inserts the invoice, so numbers have no gaps. */
export const invoiceCounters = pgTable('invoice_counters', {
  year: integer('year').primaryKey(),
  last: integer('last').notNull(),
});

/** A short-lived one-time link to one invoice's PDF (token kept as its SHA-256 only), as for audit exports. */
export const invoiceLinks = pgTable('invoice_links', {
  id: uuid('id').primaryKey(),
  tokenHash: text('token_hash').notNull(),
  invoiceId: uuid('invoice_id')
    .notNull()
    .references(() => invoices.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});
