import { z } from 'zod';
import { LINK_GONE_ERRORS } from './route-errors.js';
import { messages, withoutControlCharacters } from '../forms/messages.js';
import { pageSizeSchema } from './page-size.js';

/**
 * The audit trail (DESIGN §5): one entry per state-changing action, with who, when, which device or
 * organization, what, and how it ended. Read by realm ADMIN at /operator/audit and by an
 * organization's CREATOR or ADMIN on its Activity tab.
 */
export const AuditKind = {
  DeviceCreate: 'device.create',
  DeviceUpdate: 'device.update',
  DeviceDelete: 'device.delete',
  DeviceKeyReset: 'device.key-reset',
  /** An agent enrolled with the installation key (or was refused): the device's agent acted. */
  DeviceEnroll: 'device.enroll',
  DeviceMigrate: 'device.migrate',
  DevicesReindex: 'devices.reindex',
  Command: 'command',
  FolderCreate: 'file.create-folder',
  FileRename: 'file.rename',
  FileDelete: 'file.delete',
  FileUpload: 'file.upload',
  FileDownload: 'file.download',
  DriveScan: 'drive.scan',
  MonitorCreate: 'monitor.create',
  MonitorUpdate: 'monitor.update',
  MonitorDelete: 'monitor.delete',
  TunnelCreate: 'tunnel.create',
  TunnelUpdate: 'tunnel.update',
  TunnelDelete: 'tunnel.delete',
  TunnelConnect: 'tunnel.connect',
  TunnelDisconnect: 'tunnel.disconnect',
  /** A device asked its proxy for a forward it may not have (another device's tunnel, an unregistered port). */
  TunnelRefused: 'tunnel.refused',
  OrganizationCreate: 'organization.create',
  OrganizationUpdate: 'organization.update',
  OrganizationDelete: 'organization.delete',
  MemberAdd: 'member.add',
  MemberRemove: 'member.remove',
  DomainAdd: 'domain.add',
  DomainRemove: 'domain.remove',
  ServerCreate: 'server.create',
  ServerUpdate: 'server.update',
  ServerDelete: 'server.delete',
  ServersReload: 'servers.reload',
  BundleUpload: 'bundle.upload',
  BundleDelete: 'bundle.delete',
  ReleaseCreate: 'release.create',
  ReleaseDelete: 'release.delete',
  /** A release's rollout was set (issue 65): its waves, wait and threshold, or all at once. */
  RolloutSet: 'rollout.set',
  /** A wave started (by itself, once the one before stayed healthy for its wait). */
  RolloutWave: 'rollout.wave',
  /** The rollout halted by itself: a wave crossed its failure threshold. */
  RolloutHalt: 'rollout.halt',
  RolloutPause: 'rollout.pause',
  RolloutResume: 'rollout.resume',
  RolloutAbort: 'rollout.abort',
  RolloutRollback: 'rollout.rollback',
  InvoiceRun: 'invoice.run',
  SignIn: 'sign-in',
  ApiTokenCreate: 'api-token.create',
  ApiTokenRevoke: 'api-token.revoke',
  /** A token was used from an address it had not been used from before. */
  ApiTokenNewAddress: 'api-token.new-address',
  /** A terminal session on a device began (who, from where) or could not. */
  TerminalOpen: 'terminal.open',
  /** It ended: why, how long, and the bytes each way (never what was typed). */
  TerminalClose: 'terminal.close',
  /** A fleet job was created (issue 64): its command, target, schedule and how many devices it reached then. */
  JobCreate: 'job.create',
  /** One run of a job started (the devices it resolved to) or ended (the count of each state). */
  JobRunStart: 'job.run-start',
  JobRunFinish: 'job.run-finish',
  JobCancel: 'job.cancel',
  /** An alert rule of an organization was made, changed or removed (issue 66); details never hold its webhook's secret. */
  AlertRuleCreate: 'alert-rule.create',
  AlertRuleUpdate: 'alert-rule.update',
  AlertRuleDelete: 'alert-rule.delete',
  /** A rule's webhook failed every delivery for 24 hours and was switched off. */
  AlertWebhookOff: 'alert.webhook-off',
  /** An account of the built-in provider was made (invited), changed (name, role, disabled), removed (issue 72). */
  AccountCreate: 'account.create',
  AccountUpdate: 'account.update',
  AccountDelete: 'account.delete',
  /** An invitation link was made or sent again (never the link itself). */
  AccountInvite: 'account.invite',
  /** A person chose their password through an invitation or reset link. */
  AccountPasswordSet: 'account.password-set',
  /** "Forgot password?" was asked for an email (whether an account has it or not; mailed says). */
  AccountResetRequest: 'account.reset-request',
  /** Two-factor authentication was turned on or off by its person, or reset by an ADMIN; recovery codes made anew. */
  AccountTwoFactorEnable: 'account.two-factor-enable',
  AccountTwoFactorDisable: 'account.two-factor-disable',
  AccountTwoFactorReset: 'account.two-factor-reset',
  AccountRecoveryCodes: 'account.recovery-codes',
  /** The realm's sign-in rules changed (an ADMIN's second factor required or not). */
  AccountSettings: 'account.settings',
} as const;
export type AuditKind = (typeof AuditKind)[keyof typeof AuditKind];
export const auditKinds = Object.values(AuditKind) as [AuditKind, ...AuditKind[]];

/** How the entry's kind reads in the console's filter and table. */
export const auditKindLabels: Record<AuditKind, string> = {
  'device.create': 'Device created',
  'device.update': 'Device changed',
  'device.delete': 'Device deleted',
  'device.key-reset': 'Installation key reset',
  'device.enroll': 'Agent enrollment',
  'device.migrate': 'Device moved to another server',
  'devices.reindex': 'Search index rebuilt',
  command: 'Command',
  'file.create-folder': 'Folder created',
  'file.rename': 'File renamed',
  'file.delete': 'File deleted',
  'file.upload': 'File uploaded',
  'file.download': 'File downloaded',
  'drive.scan': 'Drive scanned',
  'monitor.create': 'Monitor created',
  'monitor.update': 'Monitor changed',
  'monitor.delete': 'Monitor deleted',
  'tunnel.create': 'Tunnel created',
  'tunnel.update': 'Tunnel changed',
  'tunnel.delete': 'Tunnel deleted',
  'tunnel.connect': 'Tunnel connected',
  'tunnel.disconnect': 'Tunnel disconnected',
  'tunnel.refused': 'Tunnel refused at the proxy',
  'organization.create': 'Organization created',
  'organization.update': 'Organization changed',
  'organization.delete': 'Organization deleted',
  'member.add': 'Member added',
  'member.remove': 'Member removed',
  'domain.add': 'Domain added',
  'domain.remove': 'Domain removed',
  'server.create': 'Server created',
  'server.update': 'Server changed',
  'server.delete': 'Server deleted',
  'servers.reload': 'Server connections reloaded',
  'bundle.upload': 'Agent bundle uploaded',
  'bundle.delete': 'Agent bundle deleted',
  'release.create': 'Release created',
  'release.delete': 'Release deleted',
  'rollout.set': 'Rollout set',
  'rollout.wave': 'Rollout wave started',
  'rollout.halt': 'Rollout halted',
  'rollout.pause': 'Rollout paused',
  'rollout.resume': 'Rollout resumed',
  'rollout.abort': 'Rollout aborted',
  'rollout.rollback': 'Release rolled back',
  'invoice.run': 'Invoice run',
  'sign-in': 'Sign-in',
  'api-token.create': 'API token created',
  'api-token.revoke': 'API token revoked',
  'api-token.new-address': 'API token used from a new address',
  'terminal.open': 'Terminal opened',
  'terminal.close': 'Terminal closed',
  'job.create': 'Job created',
  'job.run-start': 'Job run started',
  'job.run-finish': 'Job run finished',
  'job.cancel': 'Job cancelled',
  'alert-rule.create': 'Alert rule created',
  'alert-rule.update': 'Alert rule changed',
  'alert-rule.delete': 'Alert rule deleted',
  'alert.webhook-off': 'Webhook switched off',
  'account.create': 'Account invited',
  'account.update': 'Account changed',
  'account.delete': 'Account deleted',
  'account.invite': 'Invitation sent',
  'account.password-set': 'Password chosen',
  'account.reset-request': 'Password reset asked',
  'account.two-factor-enable': 'Two-factor turned on',
  'account.two-factor-disable': 'Two-factor turned off',
  'account.two-factor-reset': 'Two-factor reset',
  'account.recovery-codes': 'Recovery codes made',
  'account.settings': 'Sign-in rules changed',
};

export const auditOutcomes = ['ok', 'error'] as const;
export type AuditOutcome = (typeof auditOutcomes)[number];

/** A device or organization as it was named when the entry was written (entries outlive both). */
const auditTargetSchema = z.object({ id: z.string(), name: z.string().nullable() });

export const auditEntrySchema = z.object({
  id: z.string(),
  time: z.string(),
  /** The signed-in user's login (for a failed sign-in, what was typed); null when a device's agent acted. */
  username: z.string().nullable(),
  subject: z.string().nullable(),
  clientAddress: z.string().nullable(),
  kind: z.enum(auditKinds),
  organization: auditTargetSchema.nullable(),
  device: auditTargetSchema.nullable(),
  /** The relevant fields of the action; never a secret. */
  details: z.record(z.string(), z.unknown()),
  outcome: z.enum(auditOutcomes),
  /** The message the person saw when the action failed. */
  error: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const AUDIT_PAGE_SIZE_MAX = 200;
const FILTER_TEXT_MAX = 255;

/** Where a page starts: the (time, id) of the last entry of the page before it, opaque to clients. */
export interface AuditCursor {
  time: Date;
  id: string;
}

export function encodeAuditCursor(c: AuditCursor): string {
  return `${c.time.getTime()}_${c.id}`;
}

/** The last millisecond of year 9999: what a timestamp column and ISO text both hold. */
const LATEST_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export function decodeAuditCursor(value: string): AuditCursor | undefined {
  // At most 18 digits of id: every such number fits the bigint column, so no cursor reaches the database unreadable.
  const match = /^(\d{1,15})_(\d{1,18})$/.exec(value);
  if (!match || Number(match[1]) > LATEST_TIME_MS) return undefined;
  return { time: new Date(Number(match[1])), id: match[2]! };
}

/** Times a filter may name: the database has no year 0, and nothing was recorded before 1970. */
const inRecordedYears = (v: string) => {
  const ms = Date.parse(v);
  return ms >= 0 && ms <= LATEST_TIME_MS;
};

const timeBound = (label: string) =>
  z.iso
    .datetime({ offset: true, error: `${label} must be a date and time such as 2026-11-24T10:00:00Z.` })
    .refine(inRecordedYears, { error: `${label} must be between the years 1970 and 9999.` })
    .optional();

/**
 * A filter text: bounded, and without control characters (PostgreSQL cannot hold a NUL; issue 36
 * brings this check to every route in one place, after which this one can go).
 */
const filterText = (label: string) =>
  z
    .string()
    .trim()
    .max(FILTER_TEXT_MAX, messages.maxLength(label, FILTER_TEXT_MAX))
    .refine(withoutControlCharacters, messages.controlCharacters(label));

const auditFilterFields = z.object({
  who: filterText('Who').toLowerCase().optional(),
  device: filterText('Device').optional(),
  kind: z.enum(auditKinds, { error: 'Kind is not one of the recorded kinds of action.' }).optional(),
  outcome: z.enum(auditOutcomes, { error: "Outcome must be 'ok' or 'error'." }).optional(),
  from: timeBound('From'),
  to: timeBound('To'),
});

const timeRangeInOrder = (f: { from?: string; to?: string }) => !f.from || !f.to || Date.parse(f.from) <= Date.parse(f.to);
const timeRangeMessage = { error: 'The start of the time range must not be after its end.', path: ['to'] };

/** The filters of both readers (operator and organization); the CSV export takes the same ones. */
export const auditFilterSchema = auditFilterFields.refine(timeRangeInOrder, timeRangeMessage);
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export const auditQuerySchema = auditFilterFields
  .extend({
    after: z
      .string()
      .refine((v) => decodeAuditCursor(v) !== undefined, { error: 'This page link is not valid: start again from the first page.' })
      .optional(),
    size: pageSizeSchema(AUDIT_PAGE_SIZE_MAX, 50),
  })
  .refine(timeRangeInOrder, timeRangeMessage);
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** Newest first; `next` is the cursor of the following (older) page, null on the last one. */
export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  next: z.string().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

/** How long the link an export answers may wait to be opened (it is opened at once by the page). */
export const AUDIT_EXPORT_URL_TTL_MS = 60_000;

/** A one-time export link's id (its token is a `linkTokenQuerySchema`). */
export const auditExportParamsSchema = z.object({ exportId: z.uuid('Not an export link.') });

/** Where the browser downloads an export: one time, streamed, with no bearer token. */
export const AUDIT_EXPORT_URL_PREFIX = '/api/audit-export/';
export const auditExportUrl = (exportId: string, token: string) => `${AUDIT_EXPORT_URL_PREFIX}${exportId}?token=${encodeURIComponent(token)}`;

/** The operator's audit trail (realm ADMIN) and an organization's activity (its members). */
export const auditTrailRoutes = {
  list: { method: 'GET', path: '/api/audit', role: 'ADMIN' },
  export: { method: 'GET', path: '/api/audit/export', role: 'ADMIN' },
  exportLink: { method: 'POST', path: '/api/audit/export-link', role: 'ADMIN' },
  organizationList: { method: 'GET', path: '/api/organization/:id/audit', role: 'USER' },
  organizationExport: { method: 'GET', path: '/api/organization/:id/audit/export', role: 'USER' },
  organizationExportLink: { method: 'POST', path: '/api/organization/:id/audit/export-link', role: 'USER' },
  /** The one-time link an export-link call answered. */
  download: { method: 'GET', path: '/api/audit-export/:exportId', oneTimeLink: true, errors: LINK_GONE_ERRORS },
} as const;
