import { randomUUID } from 'node:crypto';
import { agentTerminalUrl, AuditKind, RequestName, terminalHelloSchema, type TerminalHello } from '@fleetlink/contract';
import type { WebSocket } from 'ws';
import { hasRole, type Principal } from '../../auth/principal.js';
import { InvalidTokenError } from '../../auth/token-verifier.js';
import { AppError, forbidden } from '../../lib/app-error.js';
import { newLinkToken } from '../../lib/link-token.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { callDevice, type DeviceCallDeps } from '../broker/device-call.js';
import { sha256 } from '../enrollment/credentials.js';
import type { BusChange, LiveSink } from '../live/live-bus.js';
import type { OrganizationPolicy } from '../organizations/organization.policy.js';
import { RELAY_WAIT_MS, TerminalSession } from './terminal-session.js';
import { SESSION_ALIVE_EVERY_MS, type TerminalSessionsRepository } from './terminal-sessions.repository.js';

export interface TerminalServiceDeps extends DeviceCallDeps {
  repo: TerminalSessionsRepository;
  policy: OrganizationPolicy;
  audit: AuditTrail;
  /** The caller of a bearer token (plugins/auth.ts bearerAuthenticator). */
  authenticate(token: string, address: string): Promise<Principal>;
  /** Where other consoles reach this one to hand it a relay (CONSOLE_PEER_URL). */
  peerUrl: () => string;
  idleMinutes: number;
  maxSessions: number;
  log: { info(o: object, m: string): void; warn(o: object, m: string): void };
}

const TEXTS = {
  offline: 'The device is offline: a terminal opens only while its agent is connected.',
  wentOffline: 'The device went offline while the terminal was opening.',
};

/**
 * The web terminal (issue 63). A page's socket becomes a session here once its token says who it
 * is: realm ADMIN (as the Command tab) and a member of the device's organization, with a device
 * online and a free slot. The agent is then asked to open its relay with a single-use token; the
 * relay may reach any console, which hands it to this one (terminal.routes.ts). The service also
 * hears, on every console's live bus, devices that went offline or were deleted, and ends their sessions.
 */
export class TerminalService implements LiveSink {
  private readonly sessions = new Map<string, TerminalSession>();
  private readonly aliveTimer: NodeJS.Timeout;

  constructor(private readonly deps: TerminalServiceDeps) {
    this.aliveTimer = setInterval(() => {
      this.deps.repo.alive([...this.sessions.keys()]).catch((err: Error) => this.deps.log.warn({ err: err.message }, 'terminal: sessions not marked alive'));
    }, SESSION_ALIVE_EVERY_MS).unref();
  }

  get open(): number {
    return this.sessions.size;
  }

  /** Ends this console's sessions whose person may no longer act (disabled or deleted, issue 72). */
  async endInactive(isActive: (subject: string) => Promise<boolean>): Promise<void> {
    for (const session of [...this.sessions.values()]) {
      if (!(await isActive(session.subject).catch(() => true))) session.end('account');
    }
  }

  /** A session of this console still waiting for its relay. */
  waiting(sessionId: string): TerminalSession | undefined {
    const s = this.sessions.get(sessionId);
    return s?.waitingForRelay ? s : undefined;
  }

  /** The page's first message arrived: who, which device, what size. Refusals close the page's socket with their reason. */
  async start(page: WebSocket, deviceId: string, firstMessage: string, address: string): Promise<void> {
    let hello: TerminalHello;
    try {
      hello = terminalHelloSchema.parse(JSON.parse(firstMessage));
    } catch {
      return refuse(page, 401, 'The first message must be {"token": "<access token>", "cols": <columns>, "rows": <rows>}.');
    }
    let principal: Principal;
    try {
      principal = { ...(await this.deps.authenticate(hello.token, address)), clientAddress: address };
    } catch (err) {
      return refuse(page, ...refusalOf(err));
    }
    // From here the caller is known: a refusal is written to the audit trail (who tried which device).
    const refused = (status: number, message: string) => {
      void this.deps.audit.record(principal, { kind: AuditKind.TerminalOpen, deviceId, details: {} }, { error: message });
      refuse(page, status, message);
    };
    const id = randomUUID();
    const relay = newLinkToken();
    try {
      await this.authorize(principal, deviceId);
      const opened = await this.deps.repo.open(
        { id, deviceId, username: principal.username, relayTokenHash: relay.hash, relayExpiresAt: new Date(Date.now() + RELAY_WAIT_MS), peerUrl: this.deps.peerUrl() },
        this.deps.maxSessions,
      );
      if (opened === 'gone') return refused(404, 'Device not found.');
      if (opened === 'full') return refused(409, `This device already has ${this.deps.maxSessions} terminal sessions open, the most it may have: close one first.`);
    } catch (err) {
      return refused(...refusalOf(err));
    }
    if (page.readyState !== page.OPEN) return void this.deps.repo.ended(id).catch(() => {});
    const session = new TerminalSession(id, deviceId, principal, page, hello, {
      audit: this.deps.audit,
      isOnline: (d) => this.deps.devices.isOnline(d),
      idleMs: this.deps.idleMinutes * 60_000,
      ended: (s) => this.ended(s),
      log: this.deps.log,
    });
    this.sessions.set(id, session);
    try {
      const request = { sessionId: id, url: agentTerminalUrl(id, relay.token), cols: hello.cols, rows: hello.rows };
      await callDevice(this.deps, deviceId, RequestName.OpenTerminal, request, { timeoutMs: RELAY_WAIT_MS }, TEXTS);
      session.started();
    } catch (err) {
      const [status, message] = refusalOf(err);
      session.end('refused', message, status);
    }
  }

  /** A relay that reached this console, for a session of this one (false: not waiting for one). */
  attach(sessionId: string, relay: WebSocket): boolean {
    return this.sessions.get(sessionId)?.attachRelay(relay) ?? false;
  }

  /** The relay's token, checked once in the database: where the session's page is, or nothing. */
  claimRelay(sessionId: string, deviceId: string, token: string) {
    return this.deps.repo.claimRelay(sessionId, deviceId, sha256(token));
  }

  devices(changes: BusChange[]): void {
    for (const c of changes) {
      const removed = c.parts.includes('removed');
      if (!removed && c.online !== false) continue;
      for (const s of this.sessions.values()) {
        if (s.deviceId === c.id) s.end('offline', removed ? 'The device was deleted.' : undefined);
      }
    }
  }

  servers(): void {}
  access(): void {}
  resync(): void {}

  /** The console stops: every page is told. */
  close(): void {
    clearInterval(this.aliveTimer);
    for (const s of [...this.sessions.values()]) s.end('console');
  }

  private async authorize(p: Principal, deviceId: string) {
    if (!hasRole(p, 'ADMIN')) throw forbidden('Only administrators can open a terminal on a device.');
    if (p.apiToken?.scope === 'READ') throw forbidden('This API token is read-only: it cannot open a terminal.');
    await this.deps.policy.readDevice(p, deviceId);
  }

  private ended(s: TerminalSession) {
    this.sessions.delete(s.id);
    this.deps.repo.ended(s.id).catch((err: Error) => this.deps.log.warn({ err: err.message, sessionId: s.id }, 'terminal: session end not written'));
  }
}

/** The HTTP status and words of a refusal, for the page's close code and its `end` message. */
function refusalOf(err: unknown): [number, string] {
  if (err instanceof InvalidTokenError) return [401, err.message];
  if (err instanceof AppError) return [err.statusCode, err.message];
  return [503, 'The console could not open the terminal right now: try again.'];
}

function refuse(page: WebSocket, status: number, message: string) {
  if (page.readyState !== page.OPEN) return;
  page.send(JSON.stringify({ type: 'end', reason: 'refused', message }));
  page.close(4000 + status, Buffer.byteLength(message) <= 120 ? message : 'Refused: see the message before this one.');
}
