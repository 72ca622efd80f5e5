import type { ChangeNotices } from '../../db/change-notices.js';

/** How often a console behind with device messages says so to the others. */
const SAY_EVERY_MS = 5_000;
/** How long another console counts as behind after it last said so (a few of its notices). */
const HEARD_FOR_MS = 15_000;

/**
 * Whether any console of the database is behind with device messages, for the silence sweep,
 * which one console runs for all: in a reconnect storm shared by two consoles, the one not behind
 * swept offline devices whose states and heartbeats waited in the other's backlog (a 50,000-device
 * run, issue 70). A console behind says so to the others every few seconds over the change
 * notices (PostgreSQL NOTIFY); one that stops saying so counts as caught up shortly after.
 */
export class ConsolesBehind {
  private othersUntil = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly o: {
      notices: ChangeNotices;
      /** This console's own backlog: half its bound or more waiting. */
      own: () => boolean;
      log: { warn(o: object, m: string): void };
      now?: () => number;
    },
  ) {
    o.notices.on('behind', () => (this.othersUntil = this.now() + HEARD_FOR_MS));
  }

  start(): this {
    this.timer ??= setInterval(() => {
      if (!this.o.own()) return;
      this.o.notices.publish('behind').catch((err: Error) => this.o.log.warn({ err: err.message }, 'could not tell the other consoles this one is behind'));
    }, SAY_EVERY_MS).unref();
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** This console is behind, or another said it was in the last HEARD_FOR_MS. */
  any(): boolean {
    return this.o.own() || this.now() < this.othersUntil;
  }

  private now() {
    return this.o.now?.() ?? Date.now();
  }
}
