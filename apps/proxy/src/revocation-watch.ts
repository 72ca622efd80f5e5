import type { ProxyRevocations } from '@fleetlink/contract';
import type { ProxyLog } from './log.js';

export interface RevocationWatchOptions {
  /** Revocations after a cursor (null: only the cursor to start from), as the console's proxy API answers them. */
  read(after: string | null): Promise<ProxyRevocations>;
  /** Who follows them, for its log lines ('proxy', 'built-in broker'). */
  who: string;
  log: ProxyLog;
  /** Ends the connections of these devices (deleted, re-keyed, or moved off this proxy). */
  endDevices(deviceIds: Set<string>): void;
  /** Ends every device connection: what was revoked while revocations could not be read is unknown. */
  endAll(): void;
  /** How often revocations are read; the bound is two seconds from a change to its end. */
  everyMs?: number;
  /** After this long without an answer, what was missed may have been pruned (revocations are kept a day). */
  blindAfterMs?: number;
}

/**
 * Asks, every second, which devices lost their channels since the last answer, and ends their
 * connections here: a proxy asks the console (its SSH connections), the built-in broker its own
 * database (its MQTT connections). Revocations live in the database, so a change made on any
 * console reaches every proxy and broker; a question costs one indexed read.
 */
export class RevocationWatch {
  private cursor: string | null = null;
  private timer?: NodeJS.Timeout;
  private lastAnswer = Date.now();
  private failing = false;
  private stopped = false;

  constructor(private readonly o: RevocationWatchOptions) {}

  /** The cursor to start from: revocations before now concern connections made before this start. */
  async start(): Promise<void> {
    this.cursor = (await this.o.read(null)).cursor;
    this.lastAnswer = Date.now();
    this.schedule(this.o.everyMs ?? 1000);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(ms: number) {
    if (!this.stopped) this.timer = setTimeout(() => void this.poll(), ms).unref();
  }

  private async poll(): Promise<void> {
    const every = this.o.everyMs ?? 1000;
    try {
      const answer = await this.o.read(this.cursor);
      this.cursor = answer.cursor;
      this.lastAnswer = Date.now();
      if (this.failing) this.o.log.info({}, `${this.o.who}: revoked devices can be read again`);
      this.failing = false;
      if (answer.devices.length) {
        this.o.log.info({ devices: answer.devices.length }, `${this.o.who}: ending the connections of devices that lost their channels`);
        this.o.endDevices(new Set(answer.devices));
      }
      return this.schedule(answer.more ? 0 : every);
    } catch (err) {
      if (!this.failing) this.o.log.warn({ err: (err as Error).message }, `${this.o.who}: cannot read which devices lost their channels; retrying`);
      this.failing = true;
    }
    if (Date.now() - this.lastAnswer > (this.o.blindAfterMs ?? 3_600_000)) {
      this.o.log.warn({}, `${this.o.who}: revocations could not be read for too long to know which devices lost their channels; every device reconnects`);
      this.o.endAll();
      // Starts again from the latest revocation, once they can be read (a null cursor asks for it).
      this.cursor = null;
      this.lastAnswer = Date.now();
    }
    this.schedule(every);
  }
}
