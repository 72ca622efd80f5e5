import { boolean, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { TunnelMode, TunnelType } from '@fleetlink/contract';
import { devices } from './devices.js';
import { organizationDomains } from './organizations.js';
import { servers } from './servers.js';

/**
 * A device's tunnels (SPEC §3 Tunnel) and what its proxy last reported about each. The password is
 * kept only as a hash the proxy checks. A path is unique across all domains, not only within one:
 * a custom domain that goes away then leaves its tunnels on the proxy's own domain with no clash.
 */
export const tunnels = pgTable(
  'tunnels',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').$type<TunnelType>().notNull(),
    port: integer('port').notNull(),
    mode: text('mode').$type<TunnelMode>().notNull(),
    domainId: uuid('domain_id').references(() => organizationDomains.id, { onDelete: 'set null' }),
    path: text('path'),
    host: text('host').notNull(),
    securityIp: text('security_ip'),
    securityUsername: text('security_username'),
    securityPasswordHash: text('security_password_hash'),
    /** CONNECTED or DISCONNECTED as the proxy last said; null before it said anything. */
    state: text('state').$type<'CONNECTED' | 'DISCONNECTED'>(),
    mapping: text('mapping'),
    /** Why the proxy last refused to serve it although it is the device's (no port free, the device at its share), in its words. */
    refusal: text('refusal'),
    /**
     * Someone connected it and nobody disconnected it since: a PERMANENT tunnel that is wanted is
     * opened again whenever its device comes online or its proxy restarts.
     */
    wanted: boolean('wanted').notNull().default(false),
    proxyServerId: uuid('proxy_server_id').references(() => servers.id, { onDelete: 'set null' }),
    stateAt: timestamp('state_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tunnels_device_port_idx').on(t.deviceId, t.port), uniqueIndex('tunnels_path_idx').on(t.path)],
);
