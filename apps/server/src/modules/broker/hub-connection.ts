import { randomBytes, randomUUID } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { hubSubscriptions } from '@fleetlink/contract';
import { waitAtMost } from '../../lib/wait-at-most.js';

export interface HubLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export interface HubConnectionOptions {
  serverId: string;
  url: string;
  username: string | null;
  password: string | null;
  /** base64 of a CA certificate (PEM or DER), used for TLS URLs. */
  trustStore: string | null;
  /** The hub's reply token: replies to its requests arrive under it. */
  replyToken: string;
  /** Mosquitto with dynamic security: the console manages device accounts through it. */
  dynsec: boolean;
  /** The session's keepalive (MQTT_KEEPALIVE_SECONDS; 30 when not given). */
  keepaliveSeconds?: number;
  log: HubLog;
  onMessage(serverId: string, topic: string, payload: Buffer): void;
  /**
   * Called after each message handed to onMessage; the next is read from the socket once `go` is
   * called. Holding it back leaves the messages at the server (MQTT's flow control: its queue for
   * the console, then TCP), where they cost a few bytes each rather than the console's memory.
   */
  admit?(go: () => void): void;
  /** A session began (the first connect or a reconnect): it subscribes anew and is given every retained state again. */
  onSession?(serverId: string): void;
  /** Set-up after each connect (dynamic-security roles); the connection counts as connected once it is done. */
  onConnect?(serverId: string): Promise<void>;
  /** The session ended: answers to what was asked through it cannot arrive (a clean session keeps nothing). */
  onLost?(connection: HubConnection): void;
  /** What a person is shown of it (`state` as the hub answers it) may have changed: the Servers page asks again. */
  onStateChange?(serverId: string): void;
}

/** Reconnects start after a second and double up to a minute while the server stays away. */
const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 60_000;

/** What a person is told of a connection's state (the Servers page). */
export interface ConnectionState {
  state: 'CONNECTING' | 'CONNECTED' | 'UNREACHABLE';
  /** When it came to this state. */
  since: Date;
  /** Why it is unreachable, in a person's words. */
  error: string | null;
}

/** A connection error as a person reads it: what went wrong, not a stack of codes. */
export function describeConnectionError(err: Error & { code?: string | number }): string {
  const code = typeof err.code === 'string' ? err.code : undefined;
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host name could not be looked up',
    ETIMEDOUT: 'no answer',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    ECONNRESET: 'connection reset',
  };
  if (code && known[code]) return known[code];
  if (/Not authorized|Bad username or password/i.test(err.message)) return 'the username or password was refused';
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT') || /certificate|SSL|TLS/i.test(err.message)) return `TLS: ${err.message}`;
  if (/connack timeout/i.test(err.message)) return 'no answer';
  return err.message;
}

/**
 * A session held back on purpose (admit) keeps its keepalive this long at most: the server is still
 * pinged, and its answers, which wait behind the messages not yet read, are not asked for. Held
 * longer, the console is stuck, and a new session is as good as any.
 */
const HELD_KEEPALIVE_MAX_MS = 5 * 60_000;

const DYNSEC_TOPIC = '$CONTROL/dynamic-security/v1';
const DYNSEC_TIMEOUT_MS = 10_000;

/** PEM as is; DER (what a Java trust store export often is) wrapped into PEM. */
export function caFromTrustStore(b64: string | null): string | Buffer | undefined {
  if (!b64) return undefined;
  const raw = Buffer.from(b64, 'base64');
  const text = raw.toString('utf8');
  if (text.includes('-----BEGIN')) return text;
  const body = raw.toString('base64').replace(/(.{64})/g, '$1\n');
  return `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
}

/**
 * The console's connection to one message server. mqtt.js reconnects forever, so a broker that
 * restarts finds the hub back within a couple of seconds; subscriptions are renewed on each connect.
 * A server that stays away is tried again less and less often (up to once a minute), and its state
 * is logged when it changes, not at every attempt.
 */
export class HubConnection {
  readonly client: MqttClient;
  private readonly pending = new Map<string, { resolve: (r: DynsecResponse) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  /** Subscriptions of the current session acknowledged and its set-up done: until then replies could be missed. */
  private ready = false;
  /** Sessions (connects) so far; a set-up finishing for an older one changes nothing. */
  private session = 0;
  /** Since when a message waits for admit to let the next be read (undefined: not held). */
  private heldSince?: number;
  /** Set by stopListening: a session that starts afterwards subscribes to nothing. */
  private notListening = false;
  private current: ConnectionState = { state: 'CONNECTING', since: new Date(), error: null };

  constructor(private readonly opts: HubConnectionOptions) {
    const { serverId, url, log } = opts;
    this.client = mqtt.connect(url, {
      protocolVersion: 4,
      // Random and never sent to any device: a client id a device could learn, it could connect
      // with (on a broker that does not bind its accounts to client ids) and so disconnect the hub.
      clientId: `fleetlink-console-${randomBytes(12).toString('hex')}`,
      username: opts.username ?? undefined,
      password: opts.password ?? undefined,
      ca: caFromTrustStore(opts.trustStore),
      clean: true,
      keepalive: opts.keepaliveSeconds ?? 30,
      reconnectPeriod: FIRST_RETRY_MS,
      connectTimeout: 10_000,
      resubscribe: false,
    });
    this.client.on('connect', () => {
      // Requests and replies are small packets each waiting on the other: without this, Nagle's
      // algorithm and delayed ACKs hold every one of them for up to 40 ms.
      (this.client.stream as { setNoDelay?(on: boolean): void }).setNoDelay?.(true);
      const session = ++this.session;
      this.ready = false;
      this.heldSince = undefined;
      this.client.options.reconnectPeriod = FIRST_RETRY_MS;
      this.current = { state: 'CONNECTED', since: new Date(), error: null };
      log.info({ serverId, url, reconnect: session > 1 }, 'message hub connected');
      opts.onSession?.(serverId);
      // A console stopping asks for nothing more, on a session that came back meanwhile too.
      if (this.notListening) return;
      // Mosquitto (dynamic security) has shared subscriptions; the built-in broker serves one console.
      const filters = hubSubscriptions(opts.replyToken, { shared: opts.dynsec });
      if (opts.dynsec) filters[`${DYNSEC_TOPIC}/response`] = { qos: 1 };
      this.client.subscribe(filters, (err) => {
        if (err) return log.warn({ serverId, err: err.message }, 'message hub could not subscribe');
        // Mosquitto drops a client whose roles change, so the set-up may end this very session:
        // only a session that is still current after its set-up counts as connected.
        void (opts.onConnect?.(serverId) ?? Promise.resolve()).finally(() => {
          if (session !== this.session || !this.client.connected) return;
          this.ready = true;
          opts.onStateChange?.(serverId);
        });
      });
    });
    // Dynamic-security answers of a lost session never come: fail them now, not at their timeout.
    this.client.on('close', () => {
      if (this.ready) opts.onStateChange?.(serverId);
      this.ready = false;
      this.failPending(new ConnectionLostError(`the connection to ${url} was lost`));
      opts.onLost?.(this);
    });
    this.client.on('offline', () => this.becameUnreachable(this.current.error ?? 'connection lost'));
    // mqtt.js waits reconnectPeriod before each attempt (read when it sets the attempt's timer):
    // each attempt makes the wait after it twice as long, up to a minute; a connect resets it.
    this.client.on('reconnect', () => {
      this.client.options.reconnectPeriod = Math.min((this.client.options.reconnectPeriod ?? FIRST_RETRY_MS) * 2, LAST_RETRY_MS);
    });
    // An attempt that failed makes the server unreachable; an error on a live session (it ends with
    // 'offline' if it ends at all) is logged and leaves the state to the session.
    this.client.on('error', (err) => {
      if (this.client.connected) log.warn({ serverId, url, err: err.message }, 'message hub connection error');
      else this.becameUnreachable(describeConnectionError(err));
    });
    if (opts.admit) {
      const admit = opts.admit;
      // mqtt.js hands over one packet at a time and reads the next once this callback is called
      // (for QoS 1, after acknowledging it). A callback of a session that ended is dropped: its
      // packet id means nothing to the next session.
      this.client.handleMessage = (_packet, callback) => {
        const session = this.session;
        let admitted = false;
        admit(() => {
          admitted = true;
          if (session !== this.session) return;
          this.heldSince = undefined;
          if (this.client.connected) callback();
        });
        if (!admitted) this.heldSince ??= Date.now();
      };
      // Held back, the session reads nothing, the server's answer to a ping included, and mqtt.js
      // would end it 1.5 keepalives after the last packet it sent (a storm can hold a console that
      // long): every retained state given again to the next session, and what the server had
      // queued for this one lost. While held, the server is pinged as before and the session kept.
      const timedOut = this.client.onKeepaliveTimeout.bind(this.client);
      this.client.onKeepaliveTimeout = () => {
        if (this.heldSince === undefined || Date.now() - this.heldSince > HELD_KEEPALIVE_MAX_MS) return timedOut();
        this.client.sendPing();
        this.client.reschedulePing(true);
      };
    }
    this.client.on('message', (topic, payload) => {
      if (topic === `${DYNSEC_TOPIC}/response`) return this.onDynsecResponse(payload);
      opts.onMessage(serverId, topic, payload);
    });
  }

  get serverId() {
    return this.opts.serverId;
  }

  /** Connecting, connected, or unreachable since when and why. */
  get state(): ConnectionState {
    return this.current;
  }

  /** Logged once per change: a second error of the same kind while unreachable says nothing new. */
  private becameUnreachable(error: string) {
    if (this.current.state === 'UNREACHABLE' && this.current.error === error) return;
    const since = this.current.state === 'UNREACHABLE' ? this.current.since : new Date();
    this.current = { state: 'UNREACHABLE', since, error };
    this.opts.log.warn({ serverId: this.opts.serverId, url: this.opts.url, err: error }, 'message server unreachable, retrying with backoff');
    this.opts.onStateChange?.(this.opts.serverId);
  }

  /** Connected, subscribed and set up: requests sent now get their replies (dynamic security, devices). */
  get connected(): boolean {
    return this.client.connected && this.ready;
  }

  publish(topic: string, payload: unknown, opts: { qos?: 0 | 1; retain?: boolean } = {}): Promise<void> {
    return new Promise((resolve, reject) =>
      this.client.publish(topic, JSON.stringify(payload), { qos: opts.qos ?? 1, retain: opts.retain ?? false }, (err) =>
        err ? reject(err) : resolve(),
      ),
    );
  }

  /** Sends dynamic-security commands, in order and in one message, and waits for their answers. */
  async dynsec(commands: Record<string, unknown>[]): Promise<DynsecResponse[]> {
    if (!this.opts.dynsec) return [];
    if (!this.client.connected) throw new Error(`message server ${this.opts.url} is not connected`);
    const tagged = commands.map((command) => ({ ...command, command: String(command.command), correlationData: randomUUID() }));
    const answers = tagged.map(
      (command) =>
        new Promise<DynsecResponse>((resolve, reject) => {
          const timer = setTimeout(() => {
            this.pending.delete(command.correlationData);
            reject(new Error(`dynamic-security command ${command.command} got no answer`));
          }, DYNSEC_TIMEOUT_MS);
          this.pending.set(command.correlationData, { resolve, reject, timer });
        }),
    );
    // QoS 0: a QoS 1 message the server did not acknowledge stays in the client's store and is sent
    // again on the next connection, so commands the console gave up on (and answered 503 for) would
    // be carried out after the server came back: a refused reset would still retire the device's
    // account (seen on CI at stop 91). Within one connection TCP keeps them; a lost one times out.
    this.client.publish(DYNSEC_TOPIC, JSON.stringify({ commands: tagged }), { qos: 0 });
    return Promise.all(answers);
  }

  private onDynsecResponse(payload: Buffer) {
    try {
      const { responses } = JSON.parse(payload.toString('utf8')) as { responses?: DynsecResponse[] };
      for (const r of responses ?? []) {
        const p = r.correlationData ? this.pending.get(r.correlationData) : undefined;
        if (!p) continue;
        clearTimeout(p.timer);
        this.pending.delete(r.correlationData!);
        p.resolve(r);
      }
    } catch {
      this.opts.log.warn({ serverId: this.opts.serverId }, 'unreadable dynamic-security response');
    }
  }

  private failPending(err: Error) {
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    this.pending.clear();
  }

  /**
   * Asks the server to send this console no more device messages (a console stopping): those it
   * sent before are still read and handled, and with shared subscriptions the other consoles get
   * the rest. Waits for the answer `ms` at most: a server that does not answer is closed anyway.
   */
  async stopListening(ms: number): Promise<void> {
    this.notListening = true;
    if (!this.client.connected) return;
    const topics = Object.keys(hubSubscriptions(this.opts.replyToken, { shared: this.opts.dynsec }));
    await waitAtMost(ms, this.client.unsubscribeAsync(topics));
  }

  async close(): Promise<void> {
    this.failPending(new ConnectionLostError('the console closed the connection'));
    await this.client.endAsync(true);
  }
}

/** A dynamic-security command whose session ended before its answer came. */
export class ConnectionLostError extends Error {}

export interface DynsecResponse {
  command: string;
  error?: string;
  correlationData?: string;
  data?: unknown;
}
