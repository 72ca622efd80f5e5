import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const devices = pgTable(
  'devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    description: text('description'),
    branch: text('branch', { enum: ['PRODUCTION', 'ACCEPTANCE'] }).notNull().default('PRODUCTION'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    /** Secret the agent presents once at enrollment; shown to members on the Install page. */
    installationKey: text('installation_key').notNull(),
    online: boolean('online').notNull().default(false),
    /** Agent-reported properties; null until an agent has reported (SPEC: absent when not installed). */
    properties: jsonb('properties').$type<Record<string, string>>(),
    addresses: jsonb('addresses').$type<{ type: 'LOCAL' | 'PUBLIC'; ip: string }[]>().notNull().default([]),
    drives: jsonb('drives').$type<unknown[]>().notNull().default([]),
    lastResponse: timestamp('last_response', { withTimezone: true }),
    latency: integer('latency'),
    /** Full-text document maintained by the device repository and rebuilt by the reindex call. */
    search: tsvector('search'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Pages in name order come straight off this index per organization (see DevicesRepository.search).
    index('devices_org_name_idx').on(t.organizationId, t.name, t.id),
    // The per-tab counts of an unfiltered list are an index-only scan.
    index('devices_org_online_idx').on(t.organizationId, t.online),
    index('devices_search_idx').using('gin', t.search),
    index('devices_tags_idx').using('gin', t.tags),
  ],
);
