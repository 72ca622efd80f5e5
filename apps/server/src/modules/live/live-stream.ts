import { LIVE_AUTH_TIMEOUT_MS, LiveClose, liveHelloSchema, type LiveMessage } from '@fleetlink/contract';
import { decodeJwt } from 'jose';
import type { WebSocket } from 'ws';
import { actsForTheRealm, type Member, type Principal } from '../../auth/principal.js';
import { InvalidTokenError } from '../../auth/token-verifier.js';
import type { BusChange, JobChange, LiveBus, LiveSink } from './live-bus.js';
import { DeviceChanges } from './device-changes.js';

/** At most one device message per this many ms: a fleet that all changes at once is a few messages a second. */
export const LIVE_SEND_INTERVAL_MS = 250;
/** Past this many devices waiting for one stream, it is told to read everything again instead. */
export const LIVE_PENDING_MAX = 200;
/** Bytes a browser may leave unread before its stream is closed (it opens again and reads everything). */
export const LIVE_BUFFER_MAX = 256 * 1024;
/** The longest a timer may wait in Node.js. */
const TIMER_MAX_MS = 2 ** 31 - 1;

/** How often a stream opened with a personal API token checks that the token still works. */
export const LIVE_API_TOKEN_CHECK_MS = 60_000;

export interface LiveStreamDeps {
  /** The caller of a bearer token (a sign-in's access token or a personal API token), or an error saying why not. */
  authenticate(token: string, address: string): Promise<Principal>;
  /** The address the socket came from. */
  address: string;
  /** The organizations a person belongs to (read again when their access changes). */
  organizationsOf(member: Member): Promise<string[]>;
  bus: LiveBus;
  log: { info(o: object, m: string): void; debug(o: object, m: string): void };
}

/**
 * One page's live socket: it waits for the access token, then forwards the changes the person may
 * see (devices of their organizations; servers to realm administrators), gathered per device and
 * sent at most every LIVE_SEND_INTERVAL_MS. It ends when the token expires.
 */
export class LiveStream implements LiveSink {
  private principal?: Principal;
  /** The token it was opened with, checked again when an account's standing changes. */
  private token?: string;
  private admin = false;
  private orgs = new Set<string>();
  private readonly pending = new DeviceChanges();
  private resyncDue = false;
  private serversDue = false;
  private releasesDue = false;
  private alertsDue = false;
  private readonly jobsDue = new Set<string>();
  private lastSent = 0;
  private sendTimer?: NodeJS.Timeout;
  private endTimer?: NodeJS.Timeout;
  private ended = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly deps: LiveStreamDeps,
  ) {
    this.endTimer = setTimeout(() => this.close(LiveClose.Unauthorized, 'No access token was sent.'), LIVE_AUTH_TIMEOUT_MS);
    socket.once('message', (data) => void this.hello(String(data)));
    socket.on('close', () => this.end());
    socket.on('error', () => this.end());
  }

  private async hello(text: string) {
    let token: string;
    try {
      token = liveHelloSchema.parse(JSON.parse(text)).token;
    } catch {
      return this.close(LiveClose.Unauthorized, 'The first message must be {"token": "<access token>"}.');
    }
    try {
      this.principal = await this.deps.authenticate(token, this.deps.address);
    } catch (err) {
      return this.refuse(err);
    }
    if (this.ended) return;
    clearTimeout(this.endTimer);
    this.token = token;
    // A personal API token lives for months and can be revoked: its stream checks it every minute.
    // An access token required `exp`: the stream ends with it, and a renewed token opens a new one.
    const expiresAt = this.principal.apiToken ? null : decodeJwt(token).exp! * 1000;
    this.endTimer =
      expiresAt === null
        ? setTimeout(() => void this.recheck(token), LIVE_API_TOKEN_CHECK_MS)
        : setTimeout(() => this.close(LiveClose.Unauthorized, 'The access token expired.'), Math.min(Math.max(0, expiresAt - Date.now()), TIMER_MAX_MS));
    // A token limited to some organizations does not see the realm's servers.
    this.admin = actsForTheRealm(this.principal);
    try {
      this.orgs = new Set(await this.deps.organizationsOf(this.principal));
    } catch {
      // The database is away: the page opens again later, and refreshes meanwhile.
      return this.close(LiveClose.GoingAway, 'Your access could not be checked.');
    }
    if (this.ended) return;
    this.deps.bus.attach(this);
    this.deps.log.debug({ user: this.principal.username, organizations: this.orgs.size }, 'live stream opened');
    this.write({ type: 'ready', expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString() });
  }

  /** An API token's stream: closed with the reason once the token is revoked, expired or its owner gone. */
  private async recheck(token: string) {
    try {
      await this.deps.authenticate(token, this.deps.address);
    } catch (err) {
      return this.refuse(err);
    }
    if (!this.ended) this.endTimer = setTimeout(() => void this.recheck(token), LIVE_API_TOKEN_CHECK_MS);
  }

  /**
   * Someone's account was disabled or deleted (issue 72): the stream's token is checked again now,
   * so a disabled person's open page stops hearing of the fleet at once, not when its token expires.
   */
  async checkNow(): Promise<void> {
    if (!this.token || this.ended) return;
    try {
      await this.deps.authenticate(this.token, this.deps.address);
    } catch (err) {
      this.refuse(err);
    }
  }

  /** A token that is not (or no longer) valid says why; anything else (the database away) is no reason to show. */
  private refuse(err: unknown) {
    if (err instanceof InvalidTokenError) return this.close(LiveClose.Unauthorized, err.message);
    return this.close(LiveClose.GoingAway, 'Your access could not be checked.');
  }

  devices(changes: BusChange[]): void {
    if (this.resyncDue) return;
    for (const c of changes) {
      if (!this.orgs.has(c.org)) continue;
      this.pending.add(c.id, c.parts, c);
      if (this.pending.size > LIVE_PENDING_MAX) {
        // Listing them all would be more than reading the page again.
        this.pending.clear();
        this.resyncDue = true;
        break;
      }
    }
    this.schedule();
  }

  servers(): void {
    if (!this.admin) return;
    this.serversDue = true;
    this.schedule();
  }

  releases(): void {
    if (!this.admin) return;
    this.releasesDue = true;
    this.schedule();
  }

  /** Only the jobs the person made: a job is its creator's. */
  jobs(changes: JobChange[]): void {
    if (!this.principal) return;
    for (const c of changes) if (c.owner === this.principal.username && this.jobsDue.size < LIVE_PENDING_MAX) this.jobsDue.add(c.id);
    if (this.jobsDue.size) this.schedule();
  }

  /** Only the person's own bell. */
  alerts(usernames: string[]): void {
    if (!this.principal || !usernames.includes(this.principal.username)) return;
    this.alertsDue = true;
    this.schedule();
  }

  access(org: string, user?: string): void {
    const principal = this.principal;
    if (!principal || (!this.orgs.has(org) && user !== principal.username)) return;
    // A member who was removed hears nothing more of it from now; read again whether they still belong.
    this.orgs.delete(org);
    this.pending.dropOrganization(org);
    void this.deps
      .organizationsOf(principal)
      .then((orgs) => {
        this.orgs = new Set(orgs);
        this.resync();
      })
      .catch(() => this.close(LiveClose.GoingAway, 'Your access could not be checked.'));
  }

  resync(orgs?: Set<string>): void {
    if (orgs && ![...orgs].some((o) => this.orgs.has(o))) return;
    this.pending.clear();
    this.resyncDue = true;
    this.schedule();
  }

  close(code: number, reason: string): void {
    // A close reason is at most 123 bytes.
    if (!this.ended) this.socket.close(code, reason.slice(0, 120));
    this.end();
  }

  private schedule() {
    if (this.sendTimer || this.ended || !this.principal) return;
    const wait = Math.max(0, this.lastSent + LIVE_SEND_INTERVAL_MS - Date.now());
    this.sendTimer = setTimeout(() => this.send(), wait);
  }

  private send() {
    this.sendTimer = undefined;
    this.lastSent = Date.now();
    if (this.resyncDue) {
      this.resyncDue = false;
      this.pending.clear();
      this.write({ type: 'resync' });
    } else if (this.pending.size) {
      // The page needs no organization: it sees only its own.
      this.write({ type: 'devices', changes: this.pending.take().map(({ org: _org, ...c }) => c) });
    }
    if (this.serversDue) {
      this.serversDue = false;
      this.write({ type: 'servers' });
    }
    if (this.releasesDue) {
      this.releasesDue = false;
      this.write({ type: 'releases' });
    }
    if (this.jobsDue.size) {
      this.write({ type: 'jobs', ids: [...this.jobsDue] });
      this.jobsDue.clear();
    }
    if (this.alertsDue) {
      this.alertsDue = false;
      this.write({ type: 'alerts' });
    }
  }

  private write(message: LiveMessage) {
    if (this.ended) return;
    // A browser that does not read its socket would have the console keep its events without end.
    if (this.socket.bufferedAmount > LIVE_BUFFER_MAX) return this.close(LiveClose.TooSlow, 'Too many events waited to be read.');
    this.socket.send(JSON.stringify(message));
  }

  private end() {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.endTimer);
    clearTimeout(this.sendTimer);
    this.pending.clear();
    this.jobsDue.clear();
    this.deps.bus.detach(this);
  }
}
