import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { devices } from './devices.js';
import { organizations } from './organizations.js';

/** Message (MQTT) and proxy (SSH tunnel) servers devices are assigned to (SPEC §3 Server). */
export const servers = pgTable(
  'servers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type', { enum: ['MESSAGE', 'PROXY'] }).notNull(),
    url: text('url').notNull(),
    notes: text('notes'),
    maxCapacity: integer('max_capacity').notNull().default(100),
    status: text('status', { enum: ['ONLINE', 'ONLINE_REJECT_NEW_DEVICES', 'OFFLINE'] }).notNull().default('ONLINE'),
    /** Private server of one organization; null means shared by everyone. */
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
    /** MESSAGE: the console's own broker account (on Mosquitto, a dynamic-security admin). */
    username: text('username'),
    password: text('password'),
    /** MESSAGE: base64 of the CA certificate file (PEM or DER) used for mqtts:// URLs. */
    trustStore: text('trust_store'),
    trustStorePassword: text('trust_store_password'),
    blobBaseUrl: text('blob_base_url'),
    /** PROXY: the SSH host public key agents verify. */
    hostKey: text('host_key'),
    /** PROXY: the domain it serves tunnels on, as it said when it last started (`{path}.{domain}`). */
    tunnelDomain: text('tunnel_domain'),
    /** PROXY: when it last said hello (started); it is up since then while it keeps calling. */
    upSince: timestamp('up_since', { withTimezone: true }),
    /**
     * PROXY: when it last called the console's proxy API (it reads revocations every second), at
     * most a few seconds stale: long silent, it is unreachable and its tunnels are not served (issue 67).
     */
    heardAt: timestamp('heard_at', { withTimezone: true }),
    /** Started with the console (its broker or proxy): address and credentials are the console's own. */
    builtIn: boolean('built_in').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('servers_type_idx').on(t.type)],
);

/** Which servers a device is assigned to: at most one per type. */
export const deviceServers = pgTable(
  'device_servers',
  {
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    serverId: uuid('server_id')
      .notNull()
      .references(() => servers.id, { onDelete: 'cascade' }),
    assignedAt: timestamp('assigned_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.serverId] }), index('device_servers_server_idx').on(t.serverId)],
);

/**
 * A device's MQTT account. The password is derived from a console secret and `salt`, so the console
 * can provision it on another broker during a migration; only its SHA-256 is stored for checking
 * (it is 256 random-looking bits, so a fast hash is enough).
 */
export const deviceCredentials = pgTable('device_credentials', {
  deviceId: uuid('device_id')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  username: text('username').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  salt: text('salt').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** systemLoad samples an agent reports (0 to 1). */
export const deviceMetrics = pgTable(
  'device_metrics',
  {
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    time: timestamp('time', { withTimezone: true }).notNull(),
    systemLoad: real('system_load').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.time] })],
);

/** When a device was online; `end` is null while it still is. */
export const deviceOnlinePeriods = pgTable(
  'device_online_periods',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    start: timestamp('start', { withTimezone: true }).notNull(),
    end: timestamp('end', { withTimezone: true }),
  },
  (t) => [
    index('device_online_periods_device_start_idx').on(t.deviceId, t.start),
    index('device_online_periods_open_idx').on(t.deviceId).where(sql`"end" is null`),
  ],
);

/** Settings of the messaging part created once (credential secret, the embedded broker's server). */
export const brokerSettings = pgTable('broker_settings', {
  name: text('name').primaryKey(),
  value: jsonb('value').notNull(),
});

/**
 * Devices whose channels must end (migration 0018): a row per device deleted, re-keyed (its MQTT
 * account deleted or changed) or moved off a server (`serverId`: the one it left; null for every
 * server). Triggers write them in the same transaction as the change, so no way of making one is
 * missed; tunnel proxies read them in order (`seq`) to end those devices' SSH connections, whichever
 * console made the change. Rows older than a day are pruned.
 */
export const deviceRevocations = pgTable(
  'device_revocations',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    deviceId: uuid('device_id').notNull(),
    serverId: uuid('server_id'),
    reason: text('reason', { enum: ['deleted', 'rekeyed', 'moved'] }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('device_revocations_at_idx').on(t.at)],
);
