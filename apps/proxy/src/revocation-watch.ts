import type { ConsoleClient } from './console-client.js';
import type { ProxyLog } from './log.js';

export interface RevocationWatchOptions {
  console: Pick<ConsoleClient, 'revocations'>;
  log: ProxyLog;
  /** Ends the connections of these devices (deleted, re-keyed, or moved off this proxy). */
  endDevices(deviceIds: Set<string>): void;
  /** Ends every device connection: what was revoked while the console could not be asked is unknown. */
  endAll(): void;
  /** How often the console is asked; the bound is two seconds from a change to its end. */
  everyMs?: number;
  /** After this long without an answer the console may have pruned what this proxy missed (it keeps a day). */
  blindAfterMs?: number;
}

/**
 * Asks the console, every second, which devices lost their channels since the last answer, and
 * ends their SSH connections here. The console keeps revocations in its database, so a change made
 * on any console reaches every proxy; a question costs it one indexed read.
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
    this.cursor = (await this.o.console.revocations(null)).cursor;
    this.lastAnswer = Date.now();
    this.schedule(this.o.everyMs ?? 1000);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(ms: number) {
    if (!this.stopped) this.timer = setTimeout(() => void this.poll(), ms);
  }

  private async poll(): Promise<void> {
    const every = this.o.everyMs ?? 1000;
    try {
      const answer = await this.o.console.revocations(this.cursor);
      this.cursor = answer.cursor;
      this.lastAnswer = Date.now();
      if (this.failing) this.o.log.info({}, 'proxy: the console answers again; revocations are followed');
      this.failing = false;
      if (answer.devices.length) {
        this.o.log.info({ devices: answer.devices.length }, 'proxy: ending the connections of devices that lost their channels');
        this.o.endDevices(new Set(answer.devices));
      }
      return this.schedule(answer.more ? 0 : every);
    } catch (err) {
      if (!this.failing) this.o.log.warn({ err: (err as Error).message }, 'proxy: cannot ask the console for revoked devices; retrying');
      this.failing = true;
    }
    if (Date.now() - this.lastAnswer > (this.o.blindAfterMs ?? 3_600_000)) {
      this.o.log.warn({}, 'proxy: the console was unreachable too long to know which devices lost their channels; every device reconnects');
      this.o.endAll();
      // Starts again from the console's latest revocation, once it answers (a null cursor asks for it).
      this.cursor = null;
      this.lastAnswer = Date.now();
    }
    this.schedule(every);
  }
}
