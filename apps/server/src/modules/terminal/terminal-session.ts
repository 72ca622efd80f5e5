import {
  AuditKind,
  TerminalClose,
  terminalControlSchema,
  terminalEndMessages,
  terminalRelayMessageSchema,
  type TerminalEndReason,
  type TerminalEvent,
  type TerminalSize,
} from '@fleetlink/contract';
import { WebSocket, type RawData } from 'ws';
import type { Principal } from '../../auth/principal.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { sendOn } from './socket-flow.js';

/** How long the agent has to open its relay once asked. */
export const RELAY_WAIT_MS = 30_000;
/** How long after its relay dropped a session looks whether its device went offline. */
const RELAY_GONE_SETTLE_MS = 2_000;

export interface TerminalSessionDeps {
  audit: Pick<AuditTrail, 'record'>;
  /** Whether the device is online now: a relay that drops is the device going offline, or only the connection. */
  isOnline(deviceId: string): Promise<boolean | undefined>;
  idleMs: number;
  /** Called once when the session has ended (its slot is freed). */
  ended(session: TerminalSession): void;
  log: { info(o: object, m: string): void };
}

/**
 * One terminal session as the console holding its page sees it: the page's socket joined to the
 * agent's relay (which may have come through another console). Bytes go across as they are, each
 * way with backpressure; the page's size goes to the agent; the session ends (once, with one
 * reason the page is told) when the page closes, the shell exits, the device goes away, no key is
 * pressed for `idleMs`, or the console stops. Opened and ended sessions go to the audit trail with
 * the bytes each way, never what was typed.
 */
export class TerminalSession {
  private relay?: WebSocket;
  private ready = false;
  private answered = false;
  private pageHeld = false;
  private bytesIn = 0;
  private bytesOut = 0;
  private readonly openedAt = Date.now();
  private idleTimer?: NodeJS.Timeout;
  private relayTimer: NodeJS.Timeout;
  private ending = false;

  constructor(
    readonly id: string,
    readonly deviceId: string,
    private readonly principal: Principal,
    private readonly page: WebSocket,
    private size: TerminalSize,
    private readonly deps: TerminalSessionDeps,
  ) {
    this.relayTimer = setTimeout(() => this.end('refused', 'The device did not open the terminal in time: try again.'), RELAY_WAIT_MS);
    page.on('message', (data, binary) => this.fromPage(data, binary));
    page.on('close', () => this.end('closed'));
    page.on('error', () => this.end('closed'));
  }

  /** Whose session it is (the account an ADMIN may disable). */
  get subject(): string {
    return this.principal.subject;
  }

  get waitingForRelay(): boolean {
    return !this.relay && !this.ending;
  }

  /** The agent's relay, once: a second one for the same session is refused. */
  attachRelay(relay: WebSocket): boolean {
    if (!this.waitingForRelay) return false;
    this.relay = relay;
    clearTimeout(this.relayTimer);
    relay.on('message', (data, binary) => this.fromRelay(data, binary));
    relay.on('close', () => void this.relayClosed());
    relay.on('error', () => relay.terminate());
    // The page may have been resized while the agent was starting.
    relay.send(JSON.stringify({ type: 'resize', ...this.size }));
    this.becomeReady();
    return true;
  }

  /** The agent answered that the shell runs: the page hears it is ready once the relay is here too. */
  started(): void {
    this.answered = true;
    this.becomeReady();
  }

  private becomeReady() {
    if (this.ending || this.ready || !this.relay || !this.answered) return;
    this.ready = true;
    this.send({ type: 'ready', sessionId: this.id });
    this.resetIdle();
    void this.deps.audit.record(this.principal, { kind: AuditKind.TerminalOpen, deviceId: this.deviceId, details: { sessionId: this.id } }, { error: null });
  }

  /** Ends the session, telling the page why; `status` when it never started (the HTTP status of its refusal). */
  end(reason: TerminalEndReason, message = terminalEndMessages[reason], status?: number): void {
    if (this.ending) return;
    this.ending = true;
    clearTimeout(this.relayTimer);
    clearTimeout(this.idleTimer);
    this.send({ type: 'end', reason, message });
    const code = status ? 4000 + status : TerminalClose.Ended;
    if (this.page.readyState === WebSocket.OPEN) this.page.close(code, truncate(message));
    if (this.relay && this.relay.readyState !== WebSocket.CLOSED) this.relay.close(1000, 'The session ended.');
    const durationMs = Date.now() - this.openedAt;
    if (this.ready) {
      const details = { sessionId: this.id, reason, durationMs, bytesIn: this.bytesIn, bytesOut: this.bytesOut };
      void this.deps.audit.record(this.principal, { kind: AuditKind.TerminalClose, deviceId: this.deviceId, details }, { error: null });
    } else if (reason !== 'closed') {
      void this.deps.audit.record(this.principal, { kind: AuditKind.TerminalOpen, deviceId: this.deviceId, details: { sessionId: this.id } }, { error: message });
    }
    this.deps.log.info({ sessionId: this.id, deviceId: this.deviceId, reason, durationMs }, 'terminal session ended');
    this.deps.ended(this);
  }

  private fromPage(data: RawData, binary: boolean) {
    if (binary) {
      if (!this.ready || !this.relay) return;
      this.bytesIn += byteLength(data);
      this.resetIdle();
      // A paste faster than the device takes it waits in the page's socket, not here.
      return sendOn(this.relay, this.page, data, true);
    }
    const parsed = terminalControlSchema.safeParse(parseJson(data));
    if (!parsed.success) return;
    const control = parsed.data;
    if (control.type === 'resize') {
      this.size = { cols: control.cols, rows: control.rows };
      if (this.relay?.readyState === WebSocket.OPEN) this.relay.send(JSON.stringify(control));
    } else if (control.type === 'pause') {
      // The page's terminal has more to draw than it wants: the device's output waits at the device.
      this.pageHeld = true;
      this.relay?.pause();
    } else {
      this.pageHeld = false;
      if (this.relay?.isPaused && this.page.bufferedAmount === 0) this.relay.resume();
    }
  }

  private fromRelay(data: RawData, binary: boolean) {
    if (binary) {
      this.bytesOut += byteLength(data);
      return sendOn(this.page, this.relay!, data, true, () => this.pageHeld);
    }
    const parsed = terminalRelayMessageSchema.safeParse(parseJson(data));
    if (parsed.success && parsed.data.type === 'exit') {
      const { exitCode, signal } = parsed.data;
      this.end('exit', signal ? `The shell ended on signal ${signal}.` : `The shell exited with code ${exitCode}.`);
    }
  }

  private async relayClosed() {
    if (this.ending) return;
    // An agent that stopped closes its relay before the broker has told the console it is offline:
    // a moment later the device's state says which it was (the live bus may end the session first).
    await new Promise((resolve) => setTimeout(resolve, RELAY_GONE_SETTLE_MS));
    if (this.ending) return;
    const online = await this.deps.isOnline(this.deviceId).catch(() => undefined);
    this.end(online === false || online === undefined ? 'offline' : 'lost');
  }

  private resetIdle() {
    clearTimeout(this.idleTimer);
    const minutes = Math.round(this.deps.idleMs / 60_000);
    const message = minutes >= 1 ? `No key was pressed for ${minutes} minute${minutes === 1 ? '' : 's'}: the session ended.` : terminalEndMessages.idle;
    this.idleTimer = setTimeout(() => this.end('idle', message), this.deps.idleMs);
  }

  private send(event: TerminalEvent) {
    if (this.page.readyState === WebSocket.OPEN) this.page.send(JSON.stringify(event));
  }
}

const byteLength = (data: RawData) => (Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer).byteLength);

function parseJson(data: RawData): unknown {
  try {
    return JSON.parse(String(data));
  } catch {
    return undefined;
  }
}

/** A close reason is at most 123 bytes; the whole message went in the `end` event before it. */
const truncate = (message: string) => (Buffer.byteLength(message) <= 120 ? message : `${Buffer.from(message).subarray(0, 116).toString()}…`);
