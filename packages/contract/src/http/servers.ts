import { z } from 'zod';
import { messages, requiredText } from '../forms/messages.js';
import { serverTypes } from './agent-enrollment.js';

export const serverTypeSchema = z.enum(serverTypes);
export type ServerType = z.infer<typeof serverTypeSchema>;

export const serverStatuses = ['ONLINE', 'ONLINE_REJECT_NEW_DEVICES', 'OFFLINE'] as const;
export const serverStatusSchema = z.enum(serverStatuses);
export type ServerStatus = z.infer<typeof serverStatusSchema>;
/** How a status is shown (SPEC §4); anything else is 'Unknown'. */
export const serverStatusLabel = (s: string | null | undefined): string =>
  ({ ONLINE: 'Online', ONLINE_REJECT_NEW_DEVICES: 'Online reject new devices', OFFLINE: 'Offline' })[s ?? ''] ?? 'Unknown';

export const SERVER_DEFAULT_CAPACITY = 100;
export const SERVER_URL_MAX = 255;
export const SERVER_TEXT_MAX = 255;
export const SERVER_NOTES_MAX = 2048;
/** A trust store file of up to 256 KiB. */
export const SERVER_TRUST_STORE_MAX_BYTES = 256 * 1024;
/** The longest base64 text of such a file (padded, without line breaks): a cheap first check. */
export const SERVER_TRUST_STORE_MAX = 4 * Math.ceil(SERVER_TRUST_STORE_MAX_BYTES / 3);
const TRUST_STORE_TOO_BIG = 'Trust store must be a file of at most 256 KiB.';
/** The bytes a base64 text decodes to: line breaks and padding carry none. */
const base64Bytes = (text: string) => Math.floor((text.replace(/[\s=]/g, '').length * 3) / 4);

/** Protocol, host and port, e.g. mqtts://mq.example.com:8883 or ssh://proxy.example.com:2222. */
export const SERVER_URL_PATTERN = /^[a-z][a-z0-9+.-]*:\/\/(\[[0-9a-f:.]+\]|[^\s/:?#[\]@]+):\d{1,5}(\/\S*)?$/i;

/** The largest max capacity a server takes: under ten million accounts. */
export const SERVER_MAX_CAPACITY_MAX = 9_999_999;

export const serverLabels = {
  type: 'Type',
  url: 'URL',
  notes: 'Notes',
  maxCapacity: 'Max capacity',
  status: 'Status',
  organization: 'Organization',
  username: 'Username',
  password: 'Password',
  trustStore: 'Trust store',
  trustStorePassword: 'Trust store password',
  blobBaseUrl: 'Blob base URL',
  hostKey: 'Host key',
} as const;

/** The URL schemes each type of server speaks: MQTT over TCP or WebSocket, SSH for tunnels. */
export const serverSchemesByType: Record<ServerType, readonly string[]> = {
  MESSAGE: ['mqtt', 'mqtts', 'ws', 'wss'],
  PROXY: ['ssh'],
};
export const serverSchemeMessage = (type: ServerType) =>
  `URL of a ${type === 'MESSAGE' ? 'message' : 'proxy'} server must start with ${serverSchemesByType[type].map((s) => `${s}://`).join(', ').replace(/, ([^,]*)$/, ' or $1')}.`;

/** Fields a server of each type must fill (SPEC §5; a proxy's password since issue 59: it signs in with it). */
export const serverRequiredByType: Record<ServerType, readonly (keyof typeof serverLabels)[]> = {
  MESSAGE: ['username', 'password', 'trustStore', 'trustStorePassword', 'blobBaseUrl'],
  PROXY: ['password', 'hostKey'],
};

/** A server URL's scheme, lower case (`mqtts` of `MQTTS://host:8883`); undefined without one. */
export const serverUrlScheme = (url: string | null | undefined) => /^([a-z][a-z0-9+.-]*):/i.exec(url ?? '')?.[1]?.toLowerCase();
/** Whether a URL's link is encrypted (TLS): mqtts://, wss://, ssh://. */
export const serverUrlIsEncrypted = (url: string | null | undefined) => ['mqtts', 'wss', 'ssh'].includes(serverUrlScheme(url) ?? '');
/** Whether a message server's link is plain text: mqtt://, ws://. */
export const serverUrlIsPlain = (url: string | null | undefined) => ['mqtt', 'ws'].includes(serverUrlScheme(url) ?? '');
/** The fields that only an encrypted link needs (issue 59: a plain mqtt:// server has no certificate to check). */
const tlsOnlyFields: readonly string[] = ['trustStore', 'trustStorePassword'];

const optionalText = (label: string, max = SERVER_TEXT_MAX) =>
  z.string({ error: `${label} must be text.` }).trim().max(max, messages.maxLength(label, max)).nullish();

/** The server fields that are secrets: written, never answered (a server answer says whether each is set). */
const serverSecretFields: readonly string[] = ['password', 'trustStorePassword'];

/**
 * The fields a server of its type still lacks (SPEC §5), with their messages. With `secretsKept`
 * the secrets count as filled: the edit page sends them blank, which keeps the ones set.
 */
export function serverMissingFields(
  form: { type: ServerType } & Partial<Record<keyof typeof serverLabels, unknown>>,
  secretsKept = false,
): Partial<Record<keyof typeof serverLabels, string>> {
  const missing: Partial<Record<keyof typeof serverLabels, string>> = {};
  const encrypted = serverUrlIsEncrypted(typeof form.url === 'string' ? form.url : '');
  for (const field of serverRequiredByType[form.type] ?? []) {
    if (secretsKept && serverSecretFields.includes(field)) continue;
    if (!encrypted && tlsOnlyFields.includes(field)) continue;
    const value = form[field];
    if (value === undefined || value === null || String(value).trim() === '') missing[field] = messages.required(serverLabels[field]);
  }
  return missing;
}

/**
 * The server form (SPEC §5): one schema for the SPA form and POST /api/server, PUT /api/server/{id}.
 * Type, URL, max capacity and status are always required; the rest depends on the type (`required`):
 * all of it for a new server; on the edit page all but the secrets the server keeps; in an update's
 * body none, which the console checks against what it keeps (a built-in server's are its own).
 */
const serverFormSchemaOf = (required: 'all' | 'keptSecrets' | 'checkedByConsole') =>
  z
    .object({
      type: z.enum(serverTypes, { error: messages.required(serverLabels.type) }),
      url: requiredText(serverLabels.url, SERVER_URL_MAX).regex(SERVER_URL_PATTERN, messages.pattern(serverLabels.url)),
      notes: optionalText(serverLabels.notes, SERVER_NOTES_MAX),
      maxCapacity: z.coerce
        .number({ error: messages.required(serverLabels.maxCapacity) })
        .int(messages.pattern(serverLabels.maxCapacity))
        .min(1, messages.min(serverLabels.maxCapacity, 1))
        .max(SERVER_MAX_CAPACITY_MAX, messages.max(serverLabels.maxCapacity, SERVER_MAX_CAPACITY_MAX)),
      status: z.enum(serverStatuses, { error: messages.required(serverLabels.status) }),
      /** Private to one organization; empty means a public shared server. */
      organization: z.union([z.uuid({ error: 'Organization is not valid.' }), z.literal('')]).nullish(),
      username: optionalText(serverLabels.username),
      password: optionalText(serverLabels.password),
      trustStore: z
        .string({ error: `${serverLabels.trustStore} must be text.` })
        .trim()
        .max(SERVER_TRUST_STORE_MAX, TRUST_STORE_TOO_BIG)
        .regex(/^[A-Za-z0-9+/=\s]*$/, messages.pattern(serverLabels.trustStore))
        // Base64 rounds up to whole groups of 4, so the text's length alone lets up to 2 bytes more in.
        .refine((v) => base64Bytes(v) <= SERVER_TRUST_STORE_MAX_BYTES, TRUST_STORE_TOO_BIG)
        .nullish(),
      trustStorePassword: optionalText(serverLabels.trustStorePassword),
      blobBaseUrl: optionalText(serverLabels.blobBaseUrl),
      hostKey: optionalText(serverLabels.hostKey, 4096),
    })
    .superRefine((form, ctx) => {
      const scheme = serverUrlScheme(form.url);
      if (scheme && serverSchemesByType[form.type] && !serverSchemesByType[form.type].includes(scheme)) {
        ctx.addIssue({ code: 'custom', path: ['url'], message: serverSchemeMessage(form.type) });
      }
      if (required === 'checkedByConsole') return;
      const missing = serverMissingFields(form, required === 'keptSecrets');
      for (const [field, message] of Object.entries(missing)) ctx.addIssue({ code: 'custom', path: [field], message });
    });
export const serverFormSchema = serverFormSchemaOf('all');
/** The edit page's form: a blank password or trust store password keeps the one set. */
export const serverEditFormSchema = serverFormSchemaOf('keptSecrets');
/** PUT /api/server/{id}'s body: which fields are required the console decides from what it keeps. */
export const serverUpdateFormSchema = serverFormSchemaOf('checkedByConsole');
export type ServerForm = z.infer<typeof serverFormSchema>;
export type ServerFormInput = z.input<typeof serverFormSchema>;

/** Initial values of a new server form (SPEC §5: MESSAGE, 100, ONLINE). */
export const serverFormDefaults = {
  type: 'MESSAGE' as ServerType,
  url: '',
  notes: '',
  maxCapacity: SERVER_DEFAULT_CAPACITY,
  status: 'ONLINE' as ServerStatus,
  organization: '',
  username: '',
  password: '',
  trustStore: '',
  trustStorePassword: '',
  blobBaseUrl: '',
  hostKey: '',
};

export const serverParamsSchema = z.object({ id: z.uuid({ error: 'Server not found.' }) });
export const serverMigrateParamsSchema = z.object({
  deviceId: z.uuid({ error: 'Device not found.' }),
  fromServerId: z.uuid({ error: 'Server not found.' }),
  toServerId: z.uuid({ error: 'Server not found.' }),
});

/** A server as administrators see it (SPEC §3), with its current load. */
export const serverSchema = z.object({
  id: z.string(),
  type: serverTypeSchema,
  url: z.string(),
  notes: z.string().nullable(),
  maxCapacity: z.number().int(),
  status: serverStatusSchema,
  devicesCount: z.number().int(),
  organization: z.object({ id: z.string(), name: z.string() }).nullable(),
  username: z.string().nullable(),
  /** Whether a password is set: the password itself is never answered. */
  passwordSet: z.boolean(),
  trustStore: z.string().nullable(),
  trustStorePasswordSet: z.boolean(),
  blobBaseUrl: z.string().nullable(),
  hostKey: z.string().nullable(),
  /**
   * Started with the console (its built-in broker or proxy): its address and the console's
   * credentials on it are the console's own; only capacity, status and notes can change.
   */
  builtIn: z.boolean(),
  /** The hub's connection to a MESSAGE server right now; null for PROXY servers. */
  connected: z.boolean().nullable(),
  /**
   * The answering console's connection to a MESSAGE server (issue 59): connecting, connected, or
   * unreachable since when and why ("connection refused"); null for a server that console has not
   * tried yet (registered at another console since its last reload). For a PROXY server (issue 67),
   * from its own calls, the same on every console: CONNECTED since it started while it keeps
   * calling, UNREACHABLE since its last call once silent for 30 s; null before it ever called.
   */
  connection: z
    .object({ state: z.enum(['CONNECTING', 'CONNECTED', 'UNREACHABLE']), since: z.string(), error: z.string().nullable() })
    .nullable(),
});
export type Server = z.infer<typeof serverSchema>;
export const serverListSchema = z.array(serverSchema);
export type ServerList = z.infer<typeof serverListSchema>;

/** Utilization in percent, 0 decimals (SPEC §9: devicesCount / maxCapacity x 100). */
export const serverUtilization = (s: Pick<Server, 'devicesCount' | 'maxCapacity'>) =>
  s.maxCapacity > 0 ? Math.round((s.devicesCount / s.maxCapacity) * 100) : 0;
/** 'N of M - X% utilization' (SPEC §2 Administration). */
export const serverLoadText = (s: Pick<Server, 'devicesCount' | 'maxCapacity'>) =>
  `${s.devicesCount} of ${s.maxCapacity} - ${serverUtilization(s)}% utilization`;

/** GET /api/servers-reload: how many MESSAGE server connections the hub recreated. */
export const serversReloadResultSchema = z.object({ connections: z.number().int() });
export type ServersReloadResult = z.infer<typeof serversReloadResultSchema>;

/**
 * GET /api/servers-console: the console that answers (several may share one database and one
 * broker): its own id, since when it runs, and the device messages its hub handled and dropped.
 * Each console handles its share of the telemetry, and the shares add up to what devices sent.
 */
export const consoleInstanceSchema = z.object({
  id: z.string(),
  startedAt: z.iso.datetime(),
  telemetry: z.object({ handled: z.number().int(), dropped: z.number().int() }),
});
export type ConsoleInstance = z.infer<typeof consoleInstanceSchema>;

/** GET /api/device/{id}/servers (realm ADMIN): the device's assignment, for the Servers tab. */
export const deviceServersSchema = z.array(serverSchema);
export type DeviceServers = z.infer<typeof deviceServersSchema>;

// ---- Agent enrollment (public, authenticated by device id + installation key) ----

/**
 * An agent proves it is the device either with the installation key (its first enrollment, or the
 * first after a manager reset the key) or with the MQTT password it was given (an enrolled agent
 * renewing its account, e.g. after a broker lost it): a used key enrolls nothing.
 */
export const agentEnrollRequestSchema = z
  .object({
    deviceId: z.uuid({ error: 'The device id is not valid.' }),
    key: z.string().min(1, 'The installation key is required.').max(512).optional(),
    password: z.string().min(1).max(512).optional(),
    /** What the agent is, for the log only. */
    agent: z.object({ version: z.string().max(64), hostname: z.string().max(255) }).partial().optional(),
  })
  .refine((b) => b.key !== undefined || b.password !== undefined, { message: 'The installation key is required.', path: ['key'] });
export type AgentEnrollRequest = z.infer<typeof agentEnrollRequestSchema>;

/** What an agent needs to reach a server: never the console's own credentials. */
export const agentServerSchema = z.object({
  id: z.string(),
  type: serverTypeSchema,
  url: z.string(),
  /** MESSAGE over TLS: base64 CA certificate to trust. */
  trustStore: z.string().nullable(),
  /** PROXY: SSH host key to verify. */
  hostKey: z.string().nullable(),
});
export type AgentServer = z.infer<typeof agentServerSchema>;

/** The agent reads it with readAgentEnrollResponse (agent-enrollment.ts), which must agree with this schema. */
export const agentEnrollResponseSchema = z.object({
  deviceId: z.string(),
  mqtt: z.object({ username: z.string(), password: z.string() }),
  servers: z.array(agentServerSchema),
  /** Seconds between heartbeats and between systemLoad samples. */
  heartbeatSeconds: z.number().int().positive(),
  metricsSeconds: z.number().int().positive(),
});
export type AgentEnrollResponse = z.infer<typeof agentEnrollResponseSchema>;

// ---- Metrics (SPEC §3) ----

export const metricsSampleSchema = z.object({ time: z.string(), systemLoad: z.number() });
export type MetricsSample = z.infer<typeof metricsSampleSchema>;
export const metricsQuerySchema = z.object({
  /** Hours back from now, default 24, at most 8 days. */
  hours: z.coerce.number({ error: 'Hours must be a number.' }).int().min(1, messages.min('Hours', 1)).max(192, messages.max('Hours', 192)).default(24),
});
export const metricsResponseSchema = z.array(metricsSampleSchema);
export type MetricsResponse = z.infer<typeof metricsResponseSchema>;

export const timelineIntervals = ['DAY', 'WEEK'] as const;
export const timelineQuerySchema = z.object({ interval: z.enum(timelineIntervals, { error: 'Interval must be DAY or WEEK.' }).default('DAY') });
/** An online period; `end` null while the device is still online. */
export const timelineEntrySchema = z.object({ start: z.string(), end: z.string().nullable() });
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;
export const timelineResponseSchema = z.array(timelineEntrySchema);
export type TimelineResponse = z.infer<typeof timelineResponseSchema>;
/** DAY covers the last 24 hours, WEEK the last 8 days (SPEC §9 timeline). */
export const timelineHours = { DAY: 24, WEEK: 8 * 24 } as const;

/** The message and proxy servers (SPEC §7, realm ADMIN), enrollment, and a device's load history. */
export const serverRoutes = {
  list: { method: 'GET', path: '/api/servers', role: 'ADMIN' },
  get: { method: 'GET', path: '/api/server/:id', role: 'ADMIN' },
  create: { method: 'POST', path: '/api/server', role: 'ADMIN' },
  update: { method: 'PUT', path: '/api/server/:id', role: 'ADMIN', errors: [409] },
  remove: { method: 'DELETE', path: '/api/server/:id', role: 'ADMIN', errors: [409] },
  reload: { method: 'GET', path: '/api/servers-reload', role: 'ADMIN' },
  console: { method: 'GET', path: '/api/servers-console', role: 'ADMIN' },
  migrate: { method: 'POST', path: '/api/server-migrate/:deviceId/:fromServerId/:toServerId', role: 'ADMIN', errors: [503] },
  ofDevice: { method: 'GET', path: '/api/device/:id/servers', role: 'ADMIN' },
} as const;

/** An agent's first call: its installation key for the device's account (rate-limited per address). */
export const enrollmentRoutes = {
  enroll: { method: 'POST', path: '/api/agent/enroll', errors: [429, 503] },
} as const;

export const metricsRoutes = {
  load: { method: 'GET', path: '/api/device/:id/metrics', role: 'USER' },
  timeline: { method: 'GET', path: '/api/device/:id/metrics/TIMELINE', role: 'USER' },
} as const;
