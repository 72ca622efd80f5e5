import { agentClientId, readRequestEnvelope, RequestName, topics, type PropertiesPayload, type ReplyEnvelope, type RequestEnvelope } from '@fleetlink/contract';
import { createMqttClient, pemCa, type MqttClient } from './connection.js';
import { drives } from './collectors/drives.js';
import { LoadSampler } from './collectors/load.js';
import { addresses } from './collectors/network.js';
import { collectProperties } from './collectors/properties.js';
import { Refused } from './refused.js';
import { MonitorWatch } from './monitors/monitor-watch.js';
import { SingleFlight } from './enrollment-loop.js';
import type { RequestHandler } from './request-handler.js';
import { log } from './log.js';
import type { AgentState, StateStore } from './store.js';
import type { Installation } from './update/installation.js';
import { SelfUpdate } from './update/self-update.js';
import { ReconnectPolicy } from './reconnect-policy.js';

const MAX_BACKOFF_MS = Number(process.env.FLEETLINK_AGENT_MAX_BACKOFF_MS ?? 30_000);
/** How often an installed agent asks for its release, besides at start and on the `update` command. */
const UPDATE_CHECK_SECONDS = Number(process.env.FLEETLINK_AGENT_UPDATE_SECONDS ?? 3600);

/** What the installed launcher does for the agent: the folder it runs it from, and the switch to a new bundle. */
export interface LauncherHandle {
  installation: Installation;
  /** Ends the agent with the launcher's update code. */
  handOver(): Promise<void>;
}

/**
 * The connected agent: state with a last will, properties, heartbeats and load samples on its own
 * topics, answers to the console's requests, and reconnection with backoff for as long as it runs.
 * While disconnected nothing is queued, so memory stays flat.
 */
export class Agent {
  private client?: MqttClient;
  private timers: NodeJS.Timeout[] = [];
  private reconnectTimer?: NodeJS.Timeout;
  /** The current connection's session (see the state payload's `session`). */
  private session = 0;
  private readonly reconnects = new ReconnectPolicy({ baseMs: 1000, capMs: MAX_BACKOFF_MS });
  private stopped = false;
  private readonly load = new LoadSampler();
  private lastLoad = 0;
  private readonly renewal = new SingleFlight<void>();
  private readonly monitors = new MonitorWatch();
  /** Loaded with the first request that does work on the device (see RequestHandler). */
  private handler?: RequestHandler;
  /** Only under the installed launcher. */
  private readonly selfUpdate?: SelfUpdate;
  private updateChecked = false;

  constructor(
    private state: AgentState,
    private readonly store: StateStore,
    /** Called when the broker refuses the account: renews it, answering the new state (undefined once stopped). */
    private readonly onRefused?: (current: AgentState) => Promise<AgentState | undefined>,
    /** Restarts the agent process (the `restart` command); absent when nothing would start it again. */
    private readonly restart?: () => Promise<void>,
    launcher?: LauncherHandle,
  ) {
    if (launcher) {
      this.selfUpdate = new SelfUpdate(launcher.installation, () => this.state, () => this.publishProperties(), launcher.handOver);
    }
  }

  start(): void {
    void this.connect();
    const { heartbeatSeconds, metricsSeconds } = this.state;
    this.timers.push(setInterval(() => this.heartbeat(), heartbeatSeconds * 1000));
    this.timers.push(setInterval(() => this.metrics(), metricsSeconds * 1000));
    this.timers.push(setInterval(() => void this.publishProperties(), Math.max(60, metricsSeconds * 5) * 1000));
    if (this.selfUpdate) this.timers.push(setInterval(() => void this.checkForUpdate(), UPDATE_CHECK_SECONDS * 1000));
  }

  /** Self-update on its own (at start, then periodically): a failure is logged and reported, the agent runs on. */
  private async checkForUpdate() {
    if (!this.selfUpdate || this.stopped) return;
    try {
      const checked = await this.selfUpdate.check();
      await checked.handOver?.();
    } catch (err) {
      log('warn', 'update check failed', { err: (err as Error).message });
    }
  }

  /** Whether the broker has taken the agent's connection. */
  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  private get deviceId() {
    return this.state.deviceId;
  }

  private async connect(): Promise<void> {
    const { messageServer, mqtt: account, heartbeatSeconds } = this.state;
    // Each connection's states, its last will included, carry its session: rising, even if the clock steps back.
    const session = (this.session = Math.max(Date.now(), this.session + 1));
    let client: MqttClient;
    try {
      client = await createMqttClient(messageServer.url, {
        protocolVersion: 4,
        clientId: agentClientId(this.deviceId),
        username: account.username,
        password: account.password,
        ca: pemCa(messageServer.trustStore),
        clean: true,
        keepalive: Math.min(60, Math.max(5, heartbeatSeconds * 2)),
        reconnectPeriod: 0,
        connectTimeout: 15_000,
        queueQoSZero: false,
        // mqtt-packet otherwise pre-allocates 65,536 two-byte Buffers for message ids: 6 MB of heap.
        writeCache: false,
        will: { topic: topics.state(this.deviceId), payload: Buffer.from(JSON.stringify({ online: false, session })), qos: 1, retain: true },
      });
    } catch (err) {
      // A URL it cannot use: nothing to retry until a migration or re-enrollment changes it.
      log('error', 'cannot connect', { server: messageServer.url, err: (err as Error).message });
      return;
    }
    if (this.stopped || this.client) {
      client.end(true);
      return;
    }
    this.client = client;
    client.on('connect', () => {
      this.reconnects.connected();
      log('info', 'connected', { server: messageServer.url });
      client.subscribe(topics.request(this.deviceId), { qos: 1 });
      this.monitors.connected();
      // A bundle on trial is online now: the launcher keeps it.
      this.selfUpdate?.online();
      void this.publish(topics.state(this.deviceId), { online: true, time: new Date().toISOString(), serverId: messageServer.id, session }, true);
      void this.publishProperties();
      if (!this.updateChecked) {
        this.updateChecked = true;
        void this.checkForUpdate();
      }
    });
    client.on('message', (topic, payload) => void this.onRequest(topic, payload));
    client.on('error', (err) => {
      const code = (err as { code?: number }).code;
      log('warn', 'connection error', { server: messageServer.url, err: err.message, code });
      if ((code === 4 || code === 5) && this.onRefused) void this.reenroll();
    });
    client.on('close', () => {
      if (client !== this.client || this.stopped) return;
      this.scheduleReconnect();
    });
  }

  private scheduleReconnect() {
    if (this.reconnectTimer || this.stopped) return;
    const delay = this.reconnects.nextDelayMs();
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (!this.stopped && this.client && !this.client.connected) this.client.reconnect();
    }, delay);
  }

  /**
   * Every refused reconnection lands here while a renewal may already be under way: they join it,
   * so there is one enrollment loop, with its own backoff, however often the broker says no.
   */
  private reenroll(): Promise<void> {
    return this.renewal.run(async () => {
      const next = await this.onRefused?.(this.state).catch((err: Error) => {
        log('error', 'cannot renew the account', { err: err.message });
        return undefined;
      });
      if (!next || this.stopped) return;
      this.state = next;
      await this.switchTo();
    });
  }

  /** Publishes (QoS 1); resolves once the broker has it, or at once when not connected (nothing is queued). */
  private publish(topic: string, payload: unknown, retain = false): Promise<void> {
    const client = this.client;
    if (!client?.connected) return Promise.resolve();
    return new Promise((resolve) => client.publish(topic, JSON.stringify(payload), { qos: 1, retain }, () => resolve()));
  }

  private heartbeat() {
    void this.publish(topics.heartbeat(this.deviceId), { time: new Date().toISOString() });
    void this.readMonitors();
  }

  /** Monitors are read at every heartbeat; readings that changed go out with the properties. */
  private async readMonitors() {
    if (!this.monitors.readings || !this.client?.connected) return;
    const { changed } = await this.monitors.refresh();
    if (changed) await this.publishProperties();
  }

  private metrics() {
    this.lastLoad = this.load.sample();
    void this.publish(topics.metrics(this.deviceId), { time: new Date().toISOString(), systemLoad: this.lastLoad });
  }

  private async publishProperties() {
    if (!this.client?.connected) return;
    const payload: PropertiesPayload = {
      properties: { ...collectProperties(this.lastLoad), ...this.selfUpdate?.properties() },
      addresses: addresses(),
      drives: await drives(),
      monitors: this.monitors.readings,
    };
    void this.publish(topics.properties(this.deviceId), payload);
  }

  private async onRequest(topic: string, payload: Buffer) {
    if (topic !== topics.request(this.deviceId)) return;
    let req: RequestEnvelope;
    try {
      req = readRequestEnvelope(JSON.parse(payload.toString('utf8')));
    } catch {
      log('warn', 'request dropped: not valid');
      return;
    }
    if (req.deadline && req.deadline < Date.now()) return;
    const reply = (r: Omit<ReplyEnvelope, 'id'>) => this.publish(req.replyTo, { id: req.id, ...r });
    try {
      switch (req.name) {
        case RequestName.Ping:
          return await reply({ ok: true, result: { time: new Date().toISOString() } });
        case RequestName.Properties:
          await this.publishProperties();
          return await reply({ ok: true });
        default:
          return await (await this.requestHandler()).answer(req, reply);
      }
    } catch (err) {
      if (!(err instanceof Refused)) log('warn', 'request failed', { name: req.name, err: (err as Error).message });
      void reply({ ok: false, error: (err as Error).message, ...(err instanceof Refused && err.code ? { code: err.code } : {}) });
    }
  }

  /** The console's requests that do work on the device, loaded with the first of them (with zod: see RequestHandler). */
  private async requestHandler(): Promise<RequestHandler> {
    if (!this.handler) {
      const { RequestHandler } = await import('./request-handler.js');
      const selfUpdate = this.selfUpdate;
      this.handler ??= new RequestHandler({
        state: () => this.state,
        monitors: this.monitors,
        migrate: (server, password) => this.migrate(server, password),
        restart: this.restart,
        update: selfUpdate && (() => selfUpdate.check(true)),
      });
    }
    return this.handler;
  }

  /** Moves to another message server: saved first, so a restart lands there too. */
  private async migrate(server: AgentState['messageServer'], password: string) {
    log('info', 'moving to another message server', { server: server.url });
    this.state = {
      ...this.state,
      mqtt: { ...this.state.mqtt, password },
      messageServer: server,
      servers: [...this.state.servers.filter((s) => s.type !== 'MESSAGE'), { ...server, type: 'MESSAGE', hostKey: null }],
    };
    this.store.save(this.state);
    // Leave no retained "online" behind on the old server.
    await new Promise<void>((resolve) => {
      if (!this.client?.connected) return resolve();
      this.client.publish(topics.state(this.deviceId), '', { qos: 1, retain: true }, () => resolve());
    });
    await this.switchTo();
  }

  private async switchTo() {
    const old = this.client;
    this.client = undefined;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    await old?.endAsync(true).catch(() => {});
    this.reconnects.connected();
    if (!this.stopped) await this.connect();
  }

  /** Graceful stop: says offline itself (a last will is only for dying). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.handler?.end();
    this.timers.forEach(clearInterval);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const client = this.client;
    if (!client) return;
    await this.publish(topics.state(this.deviceId), { online: false, time: new Date().toISOString(), session: this.session }, true);
    await client.endAsync().catch(() => {});
  }
}
