import type { ConsoleLocks } from '../db/console-locks.js';

/**
 * Work on a timer that one console at a time does (DESIGN §5b): each round takes the task's
 * advisory lock if it is free, and a console that finds it held skips the round, since another
 * is doing it now. One round at a time here too; stop() waits for the running one, so nothing
 * writes to a closed database.
 */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly o: {
      /** The lock's name, the same on every console. */
      name: string;
      everyMs: number;
      locks: ConsoleLocks;
      work: () => Promise<void>;
      log: { warn(o: object, m: string): void };
    },
  ) {}

  start(): this {
    this.timer ??= setInterval(() => void this.runOnce(), this.o.everyMs).unref();
    return this;
  }

  /** One round now, unless one runs here or on another console. */
  runOnce(): Promise<void> {
    this.running ??= this.o.locks
      .ifFree(`task:${this.o.name}`, this.o.work)
      .then(() => undefined)
      .catch((err: Error) => this.o.log.warn({ err, task: this.o.name }, `${this.o.name} failed`))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
