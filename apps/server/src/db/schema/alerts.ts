import type { AlertCondition, AlertDevices, AlertEventType, AlertWebhookBody } from '@fleetlink/contract';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { devices } from './devices.js';
import { organizations } from './organizations.js';

/**
 * Alert rules (issue 66): a condition on an organization's devices (or, with no organization, a
 * realm ADMIN's rule on the whole fleet: a rollout halted), and where to tell: the console's bell,
 * mail, a webhook. The webhook's signing secret is sealed (the console must read it to sign).
 */
export const alertRules = pgTable(
  'alert_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull(),
    condition: jsonb('condition').$type<AlertCondition>().notNull(),
    devices: jsonb('devices').$type<AlertDevices>().notNull(),
    notifyConsole: boolean('notify_console').notNull(),
    emails: text('emails').array().notNull(),
    webhookUrl: text('webhook_url'),
    webhookSecret: text('webhook_secret'),
    /** Since when every delivery to the webhook failed; null while it works. */
    webhookFailingSince: timestamp('webhook_failing_since', { withTimezone: true }),
    /** When the webhook was switched off after failing for 24 hours; saving the rule switches it on again. */
    webhookDisabledAt: timestamp('webhook_disabled_at', { withTimezone: true }),
    /** Conditions on things that happened (a job failed, a rollout halted): read up to here. */
    cursorAt: timestamp('cursor_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('alert_rules_org_idx').on(t.organizationId)],
);

/**
 * What a rule has said of a device and not taken back: offline (until it is online again), a drive
 * full (until it is not), a monitor's last value. A device is alerted once per outage however often
 * the rule is evaluated, and by whichever console: the insert is the decision.
 */
export const alertRuleStates = pgTable(
  'alert_rule_states',
  {
    ruleId: uuid('rule_id')
      .notNull()
      .references(() => alertRules.id, { onDelete: 'cascade' }),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** Which of the device's things: a drive's root, a monitor's name; empty for the device itself. */
    key: text('key').notNull().default(''),
    value: text('value'),
    since: timestamp('since', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.deviceId, t.key] })],
);

/** What a rule said, once per event: the body each channel gets. */
export const alertEvents = pgTable(
  'alert_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ruleId: uuid('rule_id')
      .notNull()
      .references(() => alertRules.id, { onDelete: 'cascade' }),
    type: text('type').$type<AlertEventType>().notNull(),
    summary: text('summary').notNull(),
    body: jsonb('body').$type<AlertWebhookBody>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('alert_events_rule_idx').on(t.ruleId, t.createdAt)],
);

/**
 * One event's delivery to a webhook or a mail address: tried until it is taken (a 2xx, a mail
 * server's yes), with backoff, for up to 24 hours. A console claims a due one by moving
 * `next_attempt_at` past its send's deadline (FOR UPDATE SKIP LOCKED): two consoles never send it at once.
 */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => alertEvents.id, { onDelete: 'cascade' }),
    ruleId: uuid('rule_id')
      .notNull()
      .references(() => alertRules.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['WEBHOOK', 'EMAIL'] }).notNull(),
    /** The URL or the mail address. */
    target: text('target').notNull(),
    state: text('state', { enum: ['PENDING', 'DELIVERED', 'FAILED'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastStatus: integer('last_status'),
    lastLatencyMs: integer('last_latency_ms'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('alert_deliveries_due_idx').on(t.state, t.nextAttemptAt), index('alert_deliveries_rule_idx').on(t.ruleId, t.createdAt)],
);

/** The bell: an event for each person who hears it in the console (the organization's managers; realm ADMINs for a realm rule), and whether they read it. */
export const alertInbox = pgTable(
  'alert_inbox',
  {
    eventId: uuid('event_id')
      .notNull()
      .references(() => alertEvents.id, { onDelete: 'cascade' }),
    username: text('username').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.username] }), index('alert_inbox_user_idx').on(t.username, t.createdAt)],
);
