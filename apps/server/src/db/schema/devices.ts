import { sql } from 'drizzle-orm';
import {
  bigint,
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
    /** Secret the agent presents once at enrollment; shown to managers on the Install page. */
    installationKey: text('installation_key').notNull(),
    /** When an agent enrolled with the current key: from then on the key enrolls nothing until reset. */
    installationKeyUsedAt: timestamp('installation_key_used_at', { withTimezone: true }),
    online: boolean('online').notNull().default(false),
    /**
     * The newest state message applied (its agent connection's `session` × 2, + 1 when offline):
     * consoles sharing the telemetry may handle one device's messages out of order, and an older one
     * is then ignored.
     */
    stateOrder: bigint('state_order', { mode: 'number' }),
    /** Agent-reported properties; null until an agent has reported (SPEC: absent when not installed). */
    properties: jsonb('properties').$type<Record<string, string>>(),
    addresses: jsonb('addresses').$type<{ type: 'LOCAL' | 'PUBLIC'; ip: string }[]>().notNull().default([]),
    drives: jsonb('drives').$type<unknown[]>().notNull().default([]),
    lastResponse: timestamp('last_response', { withTimezone: true }),
    latency: integer('latency'),
    /** When a console last sent it a latency ping: the consoles that share its heartbeats ping it once between them. */
    pingedAt: timestamp('pinged_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('devices_org_name_idx').on(t.organizationId, t.name, t.id),
    index('devices_tags_idx').using('gin', t.tags),
  ],
);

/**
 * What device search reads: per device its organization, name, online state and full-text
 * document, and nothing else. Search counts visit every matching row, so these rows are kept narrow
 * (a device row carries the agent's properties, drives and addresses: about 1 KB) and out of the
 * heartbeat path (a heartbeat rewrites the device row, and with it every index on it). Triggers on
 * `devices` keep it current (migration 0003: `device_search_document` is the one definition of the
 * document), so no writer can forget it.
 */
export const deviceSearch = pgTable(
  'device_search',
  {
    deviceId: uuid('device_id')
      .primaryKey()
      .references(() => devices.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id').notNull(),
    name: text('name').notNull(),
    online: boolean('online').notNull(),
    document: tsvector('document').notNull(),
  },
  (t) => [
    // Pages in name order come straight off this index per organization (see DevicesRepository.search).
    index('device_search_org_name_idx').on(t.organizationId, t.name, t.deviceId),
    // The per-tab counts of an unfiltered list are an index-only scan.
    index('device_search_org_online_idx').on(t.organizationId, t.online),
    index('device_search_document_idx').using('gin', t.document),
    // Device ids are random (v4): the first rows of an organization in id order are a random sample
    // of it, from which the counts of a search matching many devices are estimated (device-counts.ts).
    index('device_search_org_id_idx').on(t.organizationId, t.deviceId),
  ],
);
