import { createServer, type Server, type Socket } from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { Duplex } from 'node:stream';
import { agentClientId, isOwnTopic, MQTT_MAX_PACKET_BYTES } from '@fleetlink/contract';
import { TokenBucket } from '../../lib/token-bucket.js';
import { MqttPacketLimit } from './mqtt-packet-limit.js';

/** Who a broker connection is, once authenticated. */
export type BrokerIdentity = { kind: 'console' } | { kind: 'device'; deviceId: string };

/** How the embedded broker checks accounts: the console's own, and each device's (from the database). */
export interface BrokerAccounts {
  authenticate(username: string, password: string): Promise<BrokerIdentity | undefined>;
  /** The console's own username: its connections never wait for the connection rate. */
  consoleUsername?: string;
}

export interface BrokerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

const IDENTIFIER_REJECTED = 2;
const SERVER_UNAVAILABLE = 3;
const BAD_CREDENTIALS = 4;
const NOT_AUTHORIZED = 5;

const refusal = (message: string, returnCode: number) => Object.assign(new Error(message), { returnCode }) as AuthenticateError;

/**
 * The built-in message server (DESIGN §1): Aedes on a TCP port, MQTT 3.1.1. The console may use
 * every topic; a device only `fl/d/{itsId}/#`, and any other attempt is refused and logged.
 * A device connects only with its own client id: Aedes closes the older connection of a client id
 * that connects again, so a device free to pick one could keep the console or another device off.
 * Aedes decides this before any takeover, so a refused login leaves the holder of the id connected.
 */
export class EmbeddedBroker {
  private aedes?: Aedes;
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private readonly identities = new WeakMap<object, BrokerIdentity>();
  private readonly connectRate?: TokenBucket;
  private rateSaidAt = 0;

  constructor(
    private readonly opts: {
      host: string;
      port: number;
      accounts: BrokerAccounts;
      log: BrokerLog;
      /**
       * Device connections taken a second (issue 67); past it they are refused as 'server
       * unavailable' before their account is even read, and agents try again after a random wait:
       * a fleet that comes back together is taken in at this pace instead of all at once.
       */
      connectPerSecond?: number;
    },
  ) {
    if (opts.connectPerSecond) this.connectRate = new TokenBucket(opts.connectPerSecond);
  }

  get port(): number {
    const addr = this.server?.address();
    return addr && typeof addr === 'object' ? addr.port : this.opts.port;
  }

  get url(): string {
    return `mqtt://${this.opts.host}:${this.port}`;
  }

  async start(): Promise<void> {
    const { accounts, log } = this.opts;
    const aedes = await Aedes.createBroker({
      // No in-flight limit in Aedes' message emitter. Over the limit (default 100) it queues in an
      // unbounded array anyway, so the limit bounds no memory, and draining that queue recurses once
      // per queued message: with 10,000 agents dropping at once (their last wills), the console
      // died of a stack overflow (mcollina/mqemitter#204). Without a limit there is no queue.
      concurrency: 0,
      authenticate: (client, username, password, done) => {
        if (this.connectRate && username !== accounts.consoleUsername && !this.connectRate.take()) {
          // Said once a second at most: a fleet coming back is thousands of these.
          if (Date.now() - this.rateSaidAt > 1000) {
            this.rateSaidAt = Date.now();
            log.warn({ perSecond: this.opts.connectPerSecond }, 'MQTT connections past MQTT_CONNECT_RATE are refused for now (server unavailable): agents come back after a random wait');
          }
          return done(refusal('Server unavailable', SERVER_UNAVAILABLE), false);
        }
        accounts
          .authenticate(username ?? '', password?.toString('utf8') ?? '')
          .then((identity) => {
            if (!identity) {
              log.warn({ clientId: client.id, username }, 'MQTT connection refused: bad username or password');
              return done(refusal('Bad username or password', BAD_CREDENTIALS), false);
            }
            if (identity.kind === 'device' && client.id !== agentClientId(identity.deviceId)) {
              log.warn({ clientId: client.id, deviceId: identity.deviceId }, "MQTT connection refused: a device's account used another client id");
              return done(refusal('Identifier rejected', IDENTIFIER_REJECTED), false);
            }
            this.identities.set(client, identity);
            done(null, true);
          })
          .catch((e: Error) => {
            log.warn({ err: e.message }, 'MQTT authentication failed');
            done(refusal('Server unavailable', SERVER_UNAVAILABLE), false);
          });
      },
      authorizePublish: (client, packet, done) => {
        // The broker itself (client null) publishes last wills and $SYS: those are always allowed.
        if (!client) return done(null);
        if (this.allowed(client, packet.topic, 'publish')) return done(null);
        done(new Error('Not authorized'));
      },
      authorizeSubscribe: (client, sub, done) => {
        // A null subscription is refused with SUBACK 128; the client stays connected.
        done(null, this.allowed(client, sub.topic, 'subscribe') ? sub : null);
      },
    });
    aedes.on('clientError', (client, err) => log.info({ clientId: client.id, err: err.message }, 'MQTT client error'));
    this.aedes = aedes;
    // No Nagle delay on what the broker sends: requests and replies are small and waited on.
    const server = createServer({ noDelay: true }, (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
      // Aedes reads from the limit and writes to the socket: a packet past MQTT_MAX_PACKET_BYTES
      // disconnects its sender before the broker holds any of it.
      const limit = new MqttPacketLimit(MQTT_MAX_PACKET_BYTES);
      limit.on('error', (err) => {
        // Torn down with the connection (the broker stopping with clients still on): no packet to blame.
        if (err.name === 'AbortError') return void socket.destroy();
        log.warn({ address: socket.remoteAddress, err: err.message }, 'MQTT connection closed: packet too large');
        socket.destroy();
      });
      socket.on('error', () => limit.destroy());
      aedes.handle(Duplex.from({ readable: socket.pipe(limit), writable: socket }));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.opts.port, this.opts.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
  }

  private allowed(client: object & { id: string }, topic: string, action: 'publish' | 'subscribe'): boolean {
    const identity = this.identities.get(client);
    if (identity?.kind === 'console') return true;
    if (identity?.kind === 'device' && isOwnTopic(identity.deviceId, topic)) return true;
    this.opts.log.warn(
      { clientId: client.id, deviceId: identity?.kind === 'device' ? identity.deviceId : undefined, topic, action, code: NOT_AUTHORIZED },
      `MQTT ${action} refused: outside the device's own topics`,
    );
    return false;
  }

  /** Closes the device's connection, if it has one (its account was retired). */
  disconnectDevice(deviceId: string): void {
    const client = this.clients()[agentClientId(deviceId)];
    if (!client) return;
    this.opts.log.info({ clientId: client.id, deviceId }, 'MQTT connection closed: the device account was retired');
    client.close();
  }

  /** The connected clients by id: Aedes keeps them so (what its own takeover uses), but its types omit it. */
  private clients(): Record<string, Client | undefined> {
    return (this.aedes as unknown as { clients?: Record<string, Client | undefined> } | undefined)?.clients ?? {};
  }

  /** Closes every device's connection (they sign in again, each checked anew). */
  disconnectAllDevices(): void {
    for (const client of Object.values(this.clients())) if (client && this.identities.get(client)?.kind === 'device') client.close();
  }

  /** Stops listening and drops every connection (clients see the broker go away). */
  async stop(): Promise<void> {
    const server = this.server;
    const aedes = this.aedes;
    this.server = undefined;
    this.aedes = undefined;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    if (aedes) await new Promise<void>((resolve) => aedes.close(() => resolve()));
  }
}
