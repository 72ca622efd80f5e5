import { z } from 'zod';
import { FILE_NAME_MAX, FILE_PATH_MAX } from '../http/files.js';
import { MONITOR_PATH_MAX, MONITORS_PER_DEVICE_MAX, monitorTypeSchema } from '../forms/monitor-form.js';
import { COMMAND_NAME_MAX, COMMAND_PARAMETER_NAME_MAX, COMMAND_PARAMETER_VALUE_MAX, COMMAND_PARAMETERS_MAX } from '../forms/command-form.js';

/**
 * Payload schemas of the device protocol, validated by the agent before sending and by the hub on
 * receipt (a payload that fails is dropped and logged). All payloads are JSON.
 */
const isoTime = z.iso.datetime({ offset: true });
const shortText = z.string().max(1024);

/** `fl/d/{id}/state` (retained). The agent's last will publishes `{ online: false }`. */
export const statePayloadSchema = z.object({
  online: z.boolean(),
  time: isoTime.optional(),
  /** The message server the agent is connected to, when known. */
  serverId: z.string().max(64).optional(),
  /**
   * The agent's connection this state belongs to: a number that grows with each connection (its
   * start in epoch milliseconds, kept rising). Its online state, last will and goodbye all carry it,
   * so a console can tell the newer of two state messages handled out of order (issue 60).
   */
  session: z.number().int().nonnegative().optional(),
});

/** Orders state messages: later connections after earlier ones, and a connection's end after its start. */
export const stateOrder = (state: StatePayload): number | undefined => (state.session === undefined ? undefined : state.session * 2 + (state.online ? 0 : 1));
export type StatePayload = z.infer<typeof statePayloadSchema>;

/** `fl/d/{id}/heartbeat`: proof of life between state changes. */
export const heartbeatPayloadSchema = z.object({ time: isoTime });
export type HeartbeatPayload = z.infer<typeof heartbeatPayloadSchema>;

export const addressPayloadSchema = z.object({ type: z.enum(['LOCAL', 'PUBLIC']), ip: z.union([z.ipv4(), z.ipv6()], 'An address must be an IPv4 or IPv6 address.') });
export const drivePayloadSchema = z.object({
  name: shortText,
  root: shortText,
  totalSpace: z.number().nonnegative(),
  freeSpace: z.number().nonnegative(),
});
export type DrivePayload = z.infer<typeof drivePayloadSchema>;

/** The property keys of SPEC §3 every agent reports (`monitor:{name}` keys come on top). */
export const agentPropertyKeys = [
  'os.name',
  'os.version',
  'os.arch',
  'user.name',
  'user.home',
  'user.dir',
  'hostname',
  'cpu.count',
  'cpu.sys.load',
  'mem.total',
  'mem.free',
  'swap.total',
  'swap.free',
  'java.mem.total',
  'java.mem.free',
  'java.thread.alive',
  'java.name',
  'java.version',
  'java.home',
  'agent.bundle.version',
  'agent.launcher.version',
  'update.bundle.version',
] as const;

/** A monitor as the agent evaluates it: the console's id, and what to read where. */
export const monitorDefinitionSchema = z.object({ id: z.string().min(1).max(64), type: monitorTypeSchema, path: z.string().min(1).max(MONITOR_PATH_MAX) });
export type MonitorDefinition = z.infer<typeof monitorDefinitionSchema>;

/**
 * One evaluation of a monitor, naming the definition it read (a reading of a path the monitor no
 * longer has is dropped). `value` as in the API's Monitor; null with a `note` saying why.
 */
export const monitorReadingSchema = monitorDefinitionSchema.extend({ value: shortText.nullable(), note: shortText.nullable() });
export type MonitorReading = z.infer<typeof monitorReadingSchema>;
export const monitorReadingsSchema = z.array(monitorReadingSchema).max(MONITORS_PER_DEVICE_MAX);

/**
 * `monitors.set`: every monitor of the device, replacing what the agent had. `revision` orders the
 * lists (the console sends one at each change and each time the device comes online; a list that
 * arrives after a newer one is ignored). The answer: `{ readings }`, each monitor evaluated.
 */
export const monitorsSetRequestSchema = z.object({
  revision: z.number().int().nonnegative(),
  monitors: z.array(monitorDefinitionSchema).max(MONITORS_PER_DEVICE_MAX),
});
export type MonitorsSetRequest = z.infer<typeof monitorsSetRequestSchema>;
export const monitorsSetReplySchema = z.object({ readings: monitorReadingsSchema });

/** `fl/d/{id}/properties`: the full picture, sent on connect and when it changes. */
export const propertiesPayloadSchema = z.object({
  properties: z
    .record(z.string().max(128), z.string().max(4096))
    .refine((p) => Object.keys(p).length <= 256, 'Too many properties.'),
  addresses: z.array(addressPayloadSchema).max(64),
  drives: z.array(drivePayloadSchema).max(64),
  /** The monitors' readings, once the console has told the agent its monitors (`monitors.set`). */
  monitors: monitorReadingsSchema.optional(),
});
export type PropertiesPayload = z.infer<typeof propertiesPayloadSchema>;

/** `fl/d/{id}/metrics`: one systemLoad sample, 0 to 1. */
export const metricsPayloadSchema = z.object({ time: isoTime, systemLoad: z.number().min(0).max(1) });
export type MetricsPayload = z.infer<typeof metricsPayloadSchema>;

/** The answer to a request: `result` when ok, otherwise `error` text. */
export const replyEnvelopeSchema = z.object({
  id: z.string().min(1).max(64),
  ok: z.boolean(),
  result: z.unknown().optional(),
  error: z.string().max(4096).optional(),
  /** With `error`: a reason the console branches on (the words are for people). */
  code: z.string().max(64).optional(),
});
export type ReplyEnvelope = z.infer<typeof replyEnvelopeSchema>;

/** `file.mkdir` and `file.rename`: the folder to create in, or the entry to rename; and the new name. */
export const fileNameRequestSchema = z.object({ path: z.string().min(1).max(FILE_PATH_MAX), name: z.string().min(1).max(FILE_NAME_MAX) });
export type FileNameRequest = z.infer<typeof fileNameRequestSchema>;

/** `file.delete`: a folder with contents goes only when `recursive`. */
export const fileDeleteRequestSchema = z.object({ path: z.string().min(1).max(FILE_PATH_MAX), recursive: z.boolean() });
export type FileDeleteRequest = z.infer<typeof fileDeleteRequestSchema>;

/**
 * `disk.scan`: the folder to measure, and for how many milliseconds the agent may scan before it
 * answers with what it found (a duration, not a time: the device's clock may differ from the console's).
 */
export const diskScanRequestSchema = z.object({ path: z.string().min(1).max(FILE_PATH_MAX), budgetMs: z.number().int().positive() });
export type DiskScanRequest = z.infer<typeof diskScanRequestSchema>;

/** A blob URL of the console (relative to the console the agent enrolled with) and its transfer. */
const transferRequest = { transferId: z.string().min(1).max(64), url: z.string().min(1).max(512) };

/** `file.send`: PUT the file at `path` to `url`; the reply comes once the console has all of it. */
export const fileSendRequestSchema = z.object({ ...transferRequest, path: z.string().min(1).max(FILE_PATH_MAX) });
export type FileSendRequest = z.infer<typeof fileSendRequestSchema>;
export const fileSendReplySchema = z.object({ size: z.number().int().nonnegative() });
export type FileSendReply = z.infer<typeof fileSendReplySchema>;

/**
 * `file.fetch`: GET `url` (`size` bytes; null while the console is still receiving it, when the
 * answer's own end says it is complete) into the folder `path` as `name`, replacing a file of that
 * name only with `overwrite`; answers like a file change.
 */
export const fileFetchRequestSchema = z.object({
  ...transferRequest,
  path: z.string().min(1).max(FILE_PATH_MAX),
  name: z.string().min(1).max(FILE_NAME_MAX),
  size: z.number().int().nonnegative().nullable(),
  overwrite: z.boolean(),
});
export type FileFetchRequest = z.infer<typeof fileFetchRequestSchema>;

/** `transfer.cancel`: stop the transfer if it is still going (its request then fails). */
export const transferCancelRequestSchema = z.object({ transferId: z.string().min(1).max(64) });

/**
 * `terminal.open` (issue 63): open the relay WebSocket at `url` (relative to the console the agent
 * enrolled with; its token works once) and a pseudo-terminal of this size on it. Answered once the
 * shell runs and the relay is open, or refused with why (no pseudo-terminal on this device).
 */
export const terminalOpenRequestSchema = z.object({
  sessionId: z.string().min(1).max(64),
  url: z.string().min(1).max(512),
  cols: z.number().int().min(2).max(1000),
  rows: z.number().int().min(1).max(1000),
});
export type TerminalOpenRequest = z.infer<typeof terminalOpenRequestSchema>;

/**
 * `command`: a person's command from the Command page. Kept apart from the console's own requests
 * (ping, properties, migrate), so nothing typed on a page can reach those.
 */
export const commandRequestSchema = z.object({
  name: z.string().min(1).max(COMMAND_NAME_MAX),
  parameters: z
    .record(z.string().max(COMMAND_PARAMETER_NAME_MAX), z.string().max(COMMAND_PARAMETER_VALUE_MAX))
    .refine((p) => Object.keys(p).length <= COMMAND_PARAMETERS_MAX, 'Too many parameters.'),
});
export type CommandRequest = z.infer<typeof commandRequestSchema>;

/** `migrate`: move to another message server, with the password provisioned there. */
export const migrateParametersSchema = z.object({
  server: z.object({ id: z.string(), url: z.string(), trustStore: z.string().nullable() }),
  password: z.string().min(1),
});
export type MigrateParameters = z.infer<typeof migrateParametersSchema>;
