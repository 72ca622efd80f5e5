import { randomBytes, randomUUID } from 'node:crypto';
import {
  ErrorCode,
  heartbeatPayloadSchema,
  MQTT_MAX_PAYLOAD_BYTES,
  metricsPayloadSchema,
  parseTopic,
  propertiesPayloadSchema,
  replyEnvelopeSchema,
  statePayloadSchema,
  topics,
  type HeartbeatPayload,
  type MetricsPayload,
  type PropertiesPayload,
  type RequestEnvelope,
  type StatePayload,
  type ConsoleInstance,
} from '@fleetlink/contract';
import type { z } from 'zod';
import type { ChangeNotices } from '../../db/change-notices.js';
import { AppError } from '../../lib/app-error.js';
import { waitAtMost } from '../../lib/wait-at-most.js';
import type { ServersRepository } from '../servers/servers.repository.js';
import { CONNECTION_LOST_MESSAGE, DeviceRequestError, RequestNotSent } from './device-request-error.js';
import { DeviceWorkQueue } from './device-work-queue.js';
import type { EmbeddedBroker } from './embedded-broker.js';
import { ConnectionLostError, HubConnection, type ConnectionState, type HubLog } from './hub-connection.js';
import { bindDeviceClientIds, ensureConsoleRole, provisionDevice, removeDevice } from './dynsec.js';

/** Validated device traffic, by topic kind. */
export type DeviceMessage =
  | { kind: 'state'; payload: StatePayload }
  | { kind: 'heartbeat'; payload: HeartbeatPayload }
  | { kind: 'properties'; payload: PropertiesPayload }
  | { kind: 'metrics'; payload: MetricsPayload };

export interface DeviceTrafficHandler {
  /** `release`: to call once the handling only waits for a batch (see DeviceWorkQueue). */
  handle(serverId: string, deviceId: string, message: DeviceMessage, release?: () => void): Promise<void>;
}

const schemas: Record<DeviceMessage['kind'], z.ZodType> = {
  state: statePayloadSchema,
  heartbeat: heartbeatPayloadSchema,
  properties: propertiesPayloadSchema,
  metrics: metricsPayloadSchema,
};

/** Device messages handled at once: within the database's traffic pool (its 10 connections), apart from the API's. */
const HANDLER_CONCURRENCY = 6;
/** How long a console stopping works on device messages it has (drain), and waits for a server to stop sending (a frozen one would hold it). */
const DRAIN_MS = 10_000;
const UNSUBSCRIBE_MS = 2_000;
/** A drain is done once no message has come for this long. */
const DRAIN_QUIET_MS = 100;
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/**
 * The console side of the device protocol (DESIGN §5): one connection per registered MESSAGE
 * server, validation of everything devices send (bad payloads are dropped and logged, never
 * thrown), and request/reply over each device's own topics with a deadline.
 */
export class MessageHub {
  /**
   * Replies to this instance's requests come on their own topic, named by this token. Every device
   * a request goes to reads it, so it is random and unrelated to the connections' client ids.
   */
  readonly replyToken = randomBytes(16).toString('hex');
  /** This console among the others on one broker (GET /api/servers-console): not the reply token, which devices read. */
  readonly instanceId = randomUUID();
  private readonly startedAt = new Date();
  /** Device messages (telemetry; not replies) handled here, and dropped as not valid or failing. */
  private readonly counts = { handled: 0, dropped: 0 };
  /** The dropped ones by why (the console's metrics, issue 67). */
  private readonly droppedBy = { 'not JSON': 0, 'not valid': 0, 'not handled': 0 };
  /** Sessions begun with each message server since this console started, reloads included (the console's metrics). */
  private readonly sessionsBegun = new Map<string, number>();
  private connections = new Map<string, HubConnection>();
  private readonly pending = new Map<string, PendingRequest>();
  handler?: DeviceTrafficHandler;
  /**
   * A connection's state as a person sees it changed (connected and set up, lost, unreachable): the
   * Servers page shows it, and without this it learnt of it only at its next change of servers.
   */
  onConnectionChange?: (serverId: string) => void;
  /**
   * At most `maxBacklog` device messages read and not yet handled: above it the console stops
   * reading from its message servers until half are done (a reconnect storm brings 50,000 states
   * at once). What is not read waits at Mosquitto, whose queue per client must hold it
   * (`max_queued_messages`, deploy/mosquitto/mosquitto.conf): its default of 1,000 would drop the rest.
   */
  private readonly work: DeviceWorkQueue;
  /** Mosquitto servers whose older device accounts are bound to their client ids (bindDeviceClientIds). */
  private readonly clientIdsBound = new Set<string>();
  /** A notice from another console reconnects only a hub that has started and not stopped. */
  private phase: 'new' | 'running' | 'stopped' = 'new';
  /** When the last device message came (drain waits for a quiet moment). */
  private lastMessageAt = 0;

  constructor(
    private readonly deps: {
      servers: ServersRepository;
      log: HubLog;
      /** The embedded broker's server: it checks device accounts itself, no dynamic security. */
      embeddedServerId?: string;
      embeddedBroker?: Pick<EmbeddedBroker, 'disconnectDevice'>;
      /** The other consoles of the database: they reconnect when this one changes the servers, and this one when they do. */
      notices?: ChangeNotices;
      /** MQTT_MAX_BACKLOG; no bound when not given. */
      maxBacklog?: number;
      /** MQTT_KEEPALIVE_SECONDS (30 when not given). */
      keepaliveSeconds?: number;
    },
  ) {
    this.work = new DeviceWorkQueue(HANDLER_CONCURRENCY, deps.maxBacklog);
    deps.notices?.on('servers', () => {
      if (this.phase !== 'running') return;
      void this.reconnect().catch((err: Error) => deps.log.warn({ err: err.message }, 'could not reconnect to the message servers another console changed'));
    });
  }

  /** Connects to every registered MESSAGE server; answers how many. */
  async start(): Promise<number> {
    if (this.phase === 'stopped') return 0;
    this.phase = 'running';
    const rows = await this.deps.servers.list('MESSAGE');
    for (const row of rows) {
      const dynsec = row.id !== this.deps.embeddedServerId;
      const connection: HubConnection = new HubConnection({
        serverId: row.id,
        url: row.url,
        username: row.username,
        password: row.password,
        trustStore: row.trustStore,
        replyToken: this.replyToken,
        dynsec,
        keepaliveSeconds: this.deps.keepaliveSeconds,
        log: this.deps.log,
        onMessage: (serverId, topic, payload) => this.onMessage(serverId, topic, payload),
        admit: (go) => this.work.admit(go),
        onSession: (serverId) => this.sessionsBegun.set(serverId, (this.sessionsBegun.get(serverId) ?? 0) + 1),
        onConnect: dynsec ? (): Promise<void> => this.setUpDynsec(connection, row.username ?? '') : undefined,
        onLost: (lost) => this.failPendingVia(lost),
        onStateChange: (serverId) => this.onConnectionChange?.(serverId),
      });
      this.connections.set(row.id, connection);
    }
    return rows.length;
  }

  /**
   * After each connect to a Mosquitto server: the console's role (the first time it is added,
   * Mosquitto drops the console's session since its roles changed, and this runs again on the next
   * one), then, without holding the connection up, device accounts bound to their client ids.
   */
  private async setUpDynsec(connection: HubConnection, username: string): Promise<void> {
    const { serverId } = connection;
    const failed = (what: string) => (err: Error) => {
      if (err instanceof ConnectionLostError) this.deps.log.debug({ serverId }, 'message server set-up interrupted by a reconnect');
      else this.deps.log.warn({ serverId, err: err.message }, what);
    };
    try {
      await ensureConsoleRole(connection, username);
    } catch (err) {
      failed('could not set up the console role on the message server')(err as Error);
      if (err instanceof ConnectionLostError) return;
    }
    // A one-time upgrade that Mosquitto makes slow (it rewrites its whole file per command): a
    // console upgraded with 2,000 devices on a server takes ~27 s over it, so nothing waits on it.
    // Once done for a server, it is not repeated on reconnects: new accounts are bound as made.
    if (this.clientIdsBound.has(serverId)) return;
    void bindDeviceClientIds(connection)
      .then((bound) => {
        this.clientIdsBound.add(serverId);
        if (bound) this.deps.log.info({ serverId, bound }, 'device accounts bound to their client ids');
      })
      .catch(failed('could not bind device accounts to their client ids'));
  }

  /**
   * Recreates every connection (GET /api/servers-reload, and after servers change), here and on
   * every other console of the database.
   */
  async reload(): Promise<number> {
    const count = await this.reconnect();
    await this.deps.notices?.publish('servers').catch((err: Error) => this.deps.log.warn({ err: err.message }, 'could not tell the other consoles that the servers changed'));
    return count;
  }

  private async reconnect(): Promise<number> {
    await this.closeConnections();
    // Fresh connections, fresh set-up: a reload also looks for device accounts to bind again.
    this.clientIdsBound.clear();
    return this.start();
  }

  /**
   * The first step of stopping: no more device messages are asked for, and those already read, or
   * sent before the servers heard that, are handled, for `ms` at most. Without it a console
   * stopping in a storm dropped its backlog (up to MQTT_MAX_BACKLOG states and reports, and what
   * Mosquitto held for it), and devices kept the state they had before (issue 70).
   */
  async drain(ms = DRAIN_MS): Promise<void> {
    const until = Date.now() + ms;
    await Promise.all([...this.connections.values()].map((c) => c.stopListening(Math.min(ms, UNSUBSCRIBE_MS))));
    // Mosquitto answers the unsubscribe ahead of messages it had queued for this console and still
    // sends: done once nothing is left to handle and nothing has come for a moment.
    for (;;) {
      const left = until - Date.now();
      if (left <= 0) return;
      await waitAtMost(left, this.work.idle());
      const quiet = Date.now() - this.lastMessageAt;
      if (this.work.backlog === 0 && quiet >= DRAIN_QUIET_MS) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(DRAIN_QUIET_MS, Math.max(0, until - Date.now()))));
    }
  }

  async stop(): Promise<void> {
    this.phase = 'stopped';
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(new AppError(503, ErrorCode.Unavailable, 'The console is stopping.'));
    }
    this.pending.clear();
    await this.closeConnections();
  }

  private async closeConnections() {
    const old = [...this.connections.values()];
    this.connections = new Map();
    await Promise.all(old.map((c) => c.close().catch(() => {})));
  }

  isConnected(serverId: string): boolean | null {
    const c = this.connections.get(serverId);
    return c ? c.connected : null;
  }

  /** The connection's state for a person; connected only once it is set up (until then, connecting). */
  connectionState(serverId: string): ConnectionState | null {
    const c = this.connections.get(serverId);
    if (!c) return null;
    return c.state.state === 'CONNECTED' && !c.connected ? { ...c.state, state: 'CONNECTING' } : c.state;
  }

  instance(): ConsoleInstance {
    return { id: this.instanceId, startedAt: this.startedAt.toISOString(), telemetry: { ...this.counts } };
  }

  /** Device messages handled, and dropped by why, since this console started. */
  telemetryCounts(): { handled: number; backlog: number; droppedBy: Readonly<Record<'not JSON' | 'not valid' | 'not handled', number>> } {
    return { handled: this.counts.handled, backlog: this.work.backlog, droppedBy: this.droppedBy };
  }

  /**
   * Sessions begun with each message server since this console started. More than one a server
   * restart means the console lost a session meanwhile: each is given every retained state again.
   */
  sessionCounts(): ReadonlyMap<string, number> {
    return this.sessionsBegun;
  }

  /** Whether device messages wait to be handled here faster than they are (half the backlog's bound or more). */
  behind(): boolean {
    return this.work.behind;
  }

  private drop(why: keyof MessageHub['droppedBy']) {
    this.counts.dropped++;
    this.droppedBy[why]++;
  }

  private onMessage(serverId: string, topic: string, payload: Buffer) {
    this.lastMessageAt = Date.now();
    const parsed = parseTopic(topic);
    // Empty payloads clear retained messages (an agent leaving a server after a migration).
    if (!parsed || parsed.kind === 'req' || payload.length === 0) return;
    let data: unknown;
    try {
      if (payload.length > MQTT_MAX_PAYLOAD_BYTES) throw new Error('payload too large');
      data = JSON.parse(payload.toString('utf8'));
    } catch (err) {
      if (parsed.kind !== 'reply') this.drop('not JSON');
      this.deps.log.warn({ serverId, topic, err: (err as Error).message }, 'device message dropped: not JSON');
      return;
    }
    if (parsed.kind === 'reply') return this.onReply(serverId, parsed.deviceId, topic, data);
    const result = schemas[parsed.kind].safeParse(data);
    if (!result.success) {
      this.drop('not valid');
      this.deps.log.warn({ serverId, topic, issue: result.error.issues[0]?.message }, 'device message dropped: not valid');
      return;
    }
    const message = { kind: parsed.kind, payload: result.data } as DeviceMessage;
    // An agent that dies takes its answers with it: its requests fail now, not at their deadline.
    if (message.kind === 'state' && !message.payload.online) this.failPending(parsed.deviceId);
    const handler = this.handler;
    if (!handler) return;
    this.work.run(parsed.deviceId, (release) => handler.handle(serverId, parsed.deviceId, message, release)).then(
      () => void this.counts.handled++,
      (err: Error) => {
        this.drop('not handled');
        this.deps.log.warn({ serverId, topic, err: err.message }, 'device message could not be handled');
      },
    );
  }

  private onReply(serverId: string, deviceId: string, topic: string, data: unknown) {
    const reply = replyEnvelopeSchema.safeParse(data);
    if (!reply.success) {
      this.deps.log.warn({ serverId, topic }, 'device reply dropped: not valid');
      return;
    }
    const p = this.pending.get(reply.data.id);
    if (!p) return;
    // A device publishes only under its own topics (the brokers enforce that), so the topic says
    // who answered: an answer to another device's request is forged, and that request keeps waiting.
    if (p.deviceId !== deviceId) {
      this.deps.log.warn({ serverId, topic, deviceId, requestedOf: p.deviceId }, "device reply dropped: it answers another device's request");
      return;
    }
    clearTimeout(p.timer);
    this.pending.delete(reply.data.id);
    if (reply.data.ok) p.resolve(reply.data.result);
    else {
      const reason = reply.data.error ?? 'no reason given';
      p.reject(new DeviceRequestError('refused', `The device could not do this: ${reason}.`, reason, reply.data.code));
    }
  }

  private failPending(deviceId: string) {
    for (const [id, p] of this.pending) {
      if (p.deviceId !== deviceId) continue;
      clearTimeout(p.timer);
      this.pending.delete(id);
      p.reject(new DeviceRequestError('offline', 'The device went offline before it answered.'));
    }
  }

  /**
   * The connection went down: what was asked through it fails now with the reason (a broker
   * restart), not at its deadline, which for a file transfer is an hour away.
   */
  private failPendingVia(connection: HubConnection) {
    for (const [id, p] of this.pending) {
      if (p.via !== connection) continue;
      clearTimeout(p.timer);
      this.pending.delete(id);
      p.reject(new DeviceRequestError('lost', CONNECTION_LOST_MESSAGE));
    }
  }

  /** The connection to the device's assigned message server. */
  async connectionOf(deviceId: string): Promise<HubConnection> {
    const assigned = (await this.deps.servers.assignments(deviceId)).find((s) => s.type === 'MESSAGE');
    const c = assigned && this.connections.get(assigned.id);
    if (!c || !c.connected) throw new RequestNotSent('The message server of this device is not reachable right now.');
    return c;
  }

  /**
   * Sends a request to a device and waits for its reply, or fails with a clear error when the
   * deadline passes (never hangs).
   */
  async request(
    deviceId: string,
    name: string,
    parameters: Record<string, unknown> = {},
    opts: { timeoutMs?: number; via?: HubConnection } = {},
  ): Promise<unknown> {
    const connection = opts.via ?? (await this.connectionOf(deviceId));
    const timeoutMs = opts.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const envelope: RequestEnvelope = {
      id: randomUUID(),
      replyTo: topics.reply(deviceId, this.replyToken),
      name,
      parameters,
      deadline: Date.now() + timeoutMs,
    };
    const answer = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(envelope.id);
        reject(new DeviceRequestError('timeout', 'The device did not answer in time.'));
      }, timeoutMs);
      this.pending.set(envelope.id, { deviceId, via: connection, resolve, reject, timer });
    });
    // The deadline can pass while the publish itself is still waiting on a stalled broker: the
    // caller gets whichever comes first, and neither promise is ever left without a handler.
    answer.catch(() => {});
    const sent = connection.publish(topics.request(deviceId), envelope, { qos: 1 }).catch((err: Error) => {
      const p = this.pending.get(envelope.id);
      if (p) clearTimeout(p.timer);
      this.pending.delete(envelope.id);
      throw new RequestNotSent(`The request could not be sent: ${err.message}`);
    });
    sent.catch(() => {});
    await Promise.race([sent, answer]);
    return answer;
  }

  /** Round trip time of a ping, in milliseconds. */
  async ping(deviceId: string, via?: HubConnection): Promise<number> {
    const started = performance.now();
    await this.request(deviceId, 'ping', {}, { timeoutMs: 5000, via });
    return Math.max(0, Math.round(performance.now() - started));
  }

  connection(serverId: string): HubConnection | undefined {
    return this.connections.get(serverId);
  }

  /** Makes sure the device's account exists on a server (Mosquitto dynamic security). */
  async provisionDevice(serverId: string, deviceId: string, password: string): Promise<void> {
    if (serverId === this.deps.embeddedServerId) return;
    const c = this.connections.get(serverId);
    if (!c) throw new AppError(503, ErrorCode.Unavailable, 'The message server is not connected to the console.');
    await waitConnected(c, 5000);
    try {
      await provisionDevice(c, deviceId, password);
    } catch (err) {
      throw accountChangeFailed('The device account could not be created on the message server', err);
    }
  }

  /**
   * Removes the device's account from a server (Mosquitto dynamic security), which also drops its
   * connection there; fails when the server cannot confirm it. The embedded broker has no accounts
   * of its own: it reads the database at each login.
   */
  async removeDevice(serverId: string, deviceId: string): Promise<void> {
    if (serverId === this.deps.embeddedServerId) return;
    const c = this.connections.get(serverId);
    if (!c) throw new AppError(503, ErrorCode.Unavailable, 'The message server is not connected to the console.');
    await waitConnected(c, 5000);
    try {
      await removeDevice(c, deviceId);
    } catch (err) {
      throw accountChangeFailed('The device account could not be removed from the message server', err);
    }
  }

  /** Closes the device's connection to the embedded broker, if it has one. */
  disconnectDevice(deviceId: string): void {
    this.deps.embeddedBroker?.disconnectDevice(deviceId);
  }

  /**
   * A device has left the server (a migration, its new assignment stored): its account there goes,
   * and with it its connection. The built-in broker has no accounts of its own; it refuses a device
   * not assigned to it at login, so its connection is closed.
   */
  async retireFrom(serverId: string, deviceId: string): Promise<void> {
    if (serverId === this.deps.embeddedServerId) return this.disconnectDevice(deviceId);
    await this.removeDevice(serverId, deviceId);
  }
}

interface PendingRequest {
  /** The device the request went to: the only one whose answer counts. */
  deviceId: string;
  /** The connection it was sent through: its answer comes back only through it. */
  via: HubConnection;
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

const SERVER_UNREACHABLE = 'The message server is not reachable right now.';

async function waitConnected(c: HubConnection, ms: number) {
  const until = Date.now() + ms;
  while (!c.connected && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  if (!c.connected) throw new AppError(503, ErrorCode.Unavailable, SERVER_UNREACHABLE);
}

/**
 * A server that went away just as the change was sent is the same fault, for the person, as one
 * already gone: whether the console had noticed yet is a matter of milliseconds, so it gets the
 * same words. Any other refusal is named.
 */
function accountChangeFailed(what: string, err: unknown): AppError {
  if (err instanceof ConnectionLostError) return new AppError(503, ErrorCode.Unavailable, SERVER_UNREACHABLE);
  return new AppError(503, ErrorCode.Unavailable, `${what}: ${(err as Error).message}`);
}
