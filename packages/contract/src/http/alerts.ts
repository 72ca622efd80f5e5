import { z } from 'zod';
import { messages, requiredText, withoutControlCharacters } from '../forms/messages.js';

/**
 * Alert rules (issue 66): per organization, a condition on its devices, and a webhook to tell when
 * it is met. Managed by the organization's CREATOR or ADMIN on its Alerts tab.
 */

export const alertLimits = {
  name: 100,
  /** Rules one organization may hold. */
  perOrganization: 50,
  search: 200,
  tag: 100,
  url: 2000,
  /** Minutes a device must stay offline: the default, and the bounds (fractions allowed, as a rollout's wait). */
  offlineMinutesDefault: 5,
  offlineMinutesMin: 0.05,
  offlineMinutesMax: 7 * 24 * 60,
  /** Devices a webhook body names; past it, the count says how many there were. */
  devicesListed: 100,
  email: 254,
  emails: 10,
  /** The bell lists the newest this many. */
  inboxListed: 50,
  /** The delivery log lists the newest this many. */
  deliveriesListed: 100,
} as const;

export const alertConditionKinds = ['DEVICE_OFFLINE', 'DRIVE_FULL', 'MONITOR_CHANGED', 'JOB_FAILED', 'UPDATE_FAILED', 'ROLLOUT_HALTED'] as const;
export type AlertConditionKind = (typeof alertConditionKinds)[number];
/** Conditions on the whole fleet rather than an organization's devices: a realm ADMIN's rules. */
export const REALM_CONDITIONS: readonly AlertConditionKind[] = ['ROLLOUT_HALTED'];

export const alertConditionLabels: Record<AlertConditionKind, string> = {
  DEVICE_OFFLINE: 'A device is offline',
  DRIVE_FULL: 'A drive is nearly full',
  MONITOR_CHANGED: "A monitor's value changed",
  JOB_FAILED: 'A job failed on a device',
  UPDATE_FAILED: 'An agent update failed',
  ROLLOUT_HALTED: 'A rollout halted',
};

export const alertConditionSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({
      kind: z.literal('DEVICE_OFFLINE'),
      minutes: z
        .number({ error: 'Minutes offline must be a number.' })
        .min(alertLimits.offlineMinutesMin, `Minutes offline must be at least ${alertLimits.offlineMinutesMin}.`)
        .max(alertLimits.offlineMinutesMax, `Minutes offline must be at most ${alertLimits.offlineMinutesMax} (7 days).`)
        .default(alertLimits.offlineMinutesDefault),
    }),
    z.object({
      kind: z.literal('DRIVE_FULL'),
      percent: z
        .number({ error: 'The share full must be a number.' })
        .min(1, 'The share full must be at least 1 %.')
        .max(100, 'The share full must be at most 100 %.')
        .default(90),
    }),
    z.object({
      kind: z.literal('MONITOR_CHANGED'),
      /** The monitor's name; null for any monitor. */
      monitor: z.string().trim().max(alertLimits.name, messages.maxLength('Monitor', alertLimits.name)).nullable().default(null),
    }),
    z.object({ kind: z.literal('JOB_FAILED') }),
    z.object({ kind: z.literal('UPDATE_FAILED') }),
    z.object({ kind: z.literal('ROLLOUT_HALTED') }),
  ],
  { error: `The condition is one of ${alertConditionKinds.join(', ')}.` },
);
export type AlertCondition = z.infer<typeof alertConditionSchema>;

/** Which of the organization's devices a rule watches: all, those a search finds, or those with a tag. */
export const alertDevicesSchema = z.object({
  search: z.string().trim().max(alertLimits.search, messages.maxLength('Search', alertLimits.search)).optional(),
  tag: z.string().trim().max(alertLimits.tag, messages.maxLength('Tag', alertLimits.tag)).optional(),
});
export type AlertDevices = z.infer<typeof alertDevicesSchema>;

const webhookUrlSchema = z
  .string()
  .trim()
  .max(alertLimits.url, messages.maxLength('Webhook URL', alertLimits.url))
  .refine((url) => /^https?:\/\/[^\s/]+/i.test(url) && URL.canParse(url), 'The webhook URL must be an http:// or https:// address.')
  .refine((url) => !URL.canParse(url) || (!new URL(url).username && !new URL(url).password), 'The webhook URL cannot hold a user name or password: the signature proves the sender.');

export const alertRuleFormSchema = z.object({
  name: requiredText('Name', alertLimits.name).refine(withoutControlCharacters, messages.controlCharacters('Name')),
  enabled: z.boolean().default(true),
  condition: alertConditionSchema,
  devices: alertDevicesSchema.default({}),
  notify: z
    .object({
      /** The bell in the console, for the organization's managers (realm ADMINs for a realm rule). */
      console: z.boolean().default(true),
      emails: z
        .array(requiredText('A mail address', alertLimits.email).pipe(z.email({ error: messages.email('A mail address') })))
        .max(alertLimits.emails, `A rule mails at most ${alertLimits.emails} addresses.`)
        .default([]),
    })
    .default({ console: true, emails: [] }),
  /** Where to POST the alert; null for none. */
  webhookUrl: webhookUrlSchema.nullable().default(null),
});
export type AlertRuleFormInput = z.input<typeof alertRuleFormSchema>;
export type AlertRuleForm = z.output<typeof alertRuleFormSchema>;

export const alertRuleParamsSchema = z.object({ id: z.uuid('The organization id is not valid.'), ruleId: z.uuid('The rule id is not valid.') });
export const realmAlertRuleParamsSchema = z.object({ ruleId: z.uuid('The rule id is not valid.') });

/** A rule as lists show it: never its webhook's secret. */
export const alertRuleSchema = z.object({
  id: z.string(),
  /** Null for a realm ADMIN's rule on the whole fleet. */
  organizationId: z.string().nullable(),
  name: z.string(),
  enabled: z.boolean(),
  condition: alertConditionSchema,
  devices: alertDevicesSchema,
  notify: z.object({ console: z.boolean(), emails: z.array(z.string()) }),
  webhook: z
    .object({
      url: z.string(),
      /** Set when the webhook was switched off after failing for 24 hours. */
      disabledAt: z.string().nullable(),
    })
    .nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
export type AlertRule = z.infer<typeof alertRuleSchema>;

/** A create, or a change of the webhook URL: the rule and its webhook's signing secret, shown this once. */
export const alertRuleSavedSchema = alertRuleSchema.extend({ webhookSecret: z.string().nullable() });
export type AlertRuleSaved = z.infer<typeof alertRuleSavedSchema>;

export const alertRuleListSchema = z.object({ items: z.array(alertRuleSchema) });
export type AlertRuleList = z.infer<typeof alertRuleListSchema>;

export const alertEventTypes = ['device.offline', 'device.online', 'drive.full', 'monitor.changed', 'job.failed', 'update.failed', 'rollout.halted', 'webhook.off', 'test'] as const;
export type AlertEventType = (typeof alertEventTypes)[number];

/**
 * The JSON body of a webhook POST. Signed: `Fleetlink-Signature: t=<unix seconds>,v1=<hex
 * HMAC-SHA256 of "<t>.<body>" under the webhook's secret>`; a receiver refuses a stale `t` (replays).
 */
export const alertWebhookBodySchema = z.object({
  id: z.string(),
  type: z.enum(alertEventTypes),
  summary: z.string(),
  time: z.string(),
  rule: z.object({ id: z.string(), name: z.string() }),
  /** Null for a realm rule's event. */
  organization: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** How many devices the event is about; `devices` names at most alertLimits.devicesListed of them. */
  count: z.number(),
  devices: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type AlertWebhookBody = z.infer<typeof alertWebhookBodySchema>;

export const WEBHOOK_SIGNATURE_HEADER = 'fleetlink-signature';

export const webhookDeliveryStates = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export const alertChannels = ['WEBHOOK', 'EMAIL'] as const;
export const webhookDeliverySchema = z.object({
  id: z.string(),
  channel: z.enum(alertChannels),
  /** The webhook's URL or the mail address. */
  target: z.string(),
  eventId: z.string(),
  type: z.enum(alertEventTypes),
  summary: z.string(),
  state: z.enum(webhookDeliveryStates),
  attempts: z.number(),
  /** The receiver's status code at the last attempt; null when it did not answer (the error says why). */
  lastStatus: z.number().nullable(),
  lastLatencyMs: z.number().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveryListSchema = z.object({ items: z.array(webhookDeliverySchema) });
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>;

/** One alert in the bell. */
export const alertNoticeSchema = z.object({
  id: z.string(),
  type: z.enum(alertEventTypes),
  summary: z.string(),
  rule: z.object({ id: z.string(), name: z.string() }),
  organization: z.object({ id: z.string(), name: z.string() }).nullable(),
  createdAt: z.string(),
  read: z.boolean(),
});
export type AlertNotice = z.infer<typeof alertNoticeSchema>;
export const alertInboxSchema = z.object({ unread: z.number(), items: z.array(alertNoticeSchema) });
export type AlertInbox = z.infer<typeof alertInboxSchema>;
/** Marks some alerts read, or all of them when `ids` is absent. */
export const alertReadFormSchema = z.object({ ids: z.array(z.uuid('An alert id is not valid.')).max(alertLimits.inboxListed, `Mark at most ${alertLimits.inboxListed} alerts at once.`).optional() });

export const alertRoutes = {
  list: { method: 'GET', path: '/api/organization/:id/alert-rules', role: 'USER' },
  create: { method: 'POST', path: '/api/organization/:id/alert-rules', role: 'USER', errors: [409] },
  update: { method: 'PUT', path: '/api/organization/:id/alert-rules/:ruleId', role: 'USER' },
  remove: { method: 'DELETE', path: '/api/organization/:id/alert-rules/:ruleId', role: 'USER' },
  test: { method: 'POST', path: '/api/organization/:id/alert-rules/:ruleId/test', role: 'USER', errors: [409] },
  deliveries: { method: 'GET', path: '/api/organization/:id/alert-rules/:ruleId/deliveries', role: 'USER' },
  realmList: { method: 'GET', path: '/api/alert-rules', role: 'ADMIN' },
  realmCreate: { method: 'POST', path: '/api/alert-rules', role: 'ADMIN', errors: [409] },
  realmUpdate: { method: 'PUT', path: '/api/alert-rules/:ruleId', role: 'ADMIN' },
  realmRemove: { method: 'DELETE', path: '/api/alert-rules/:ruleId', role: 'ADMIN' },
  realmTest: { method: 'POST', path: '/api/alert-rules/:ruleId/test', role: 'ADMIN', errors: [409] },
  realmDeliveries: { method: 'GET', path: '/api/alert-rules/:ruleId/deliveries', role: 'ADMIN' },
  inbox: { method: 'GET', path: '/api/alerts', role: 'USER' },
  read: { method: 'POST', path: '/api/alerts/read', role: 'USER' },
} as const;
