type Job = (release: () => void) => Promise<void>;

/**
 * Runs the console's work on device messages with two guarantees: one device's messages are
 * handled in the order they arrived, and no more than `concurrency` are handled at once. A fleet
 * that drops at once sends every last will together (10,000 state messages in a second); handled
 * all at once they queued for the database pool until its acquire timeout failed thousands of
 * them, and those devices stayed online until the silence sweep. Queued here they wait their turn.
 *
 * A job that goes on to wait for a batch (written for many devices at once, issue 70) calls the
 * `release` it is given: its place among the `concurrency` goes to the next job, so the batch can
 * grow past `concurrency`, while its device's next job still waits for it to end.
 */
export class DeviceWorkQueue {
  /** Per device, its jobs not yet started. A device is in here while it has work waiting or running. */
  private readonly jobs = new Map<string, Job[]>();
  /** Devices with a job waiting and none running, in arrival order (from `head`). */
  private ready: string[] = [];
  private head = 0;
  private active = 0;
  /** Jobs given and not yet settled, waiting or running. */
  private unsettled = 0;
  /** Readers held back by `admit` until the backlog has shrunk. */
  private held: (() => void)[] = [];
  /** Who waits for the backlog to be empty (`idle`). */
  private idlers: (() => void)[] = [];

  /**
   * `maxBacklog`: above this many unsettled jobs, `admit` holds its callers back until half of
   * them are done. The console reads the next message from a message server only once admitted:
   * in a reconnect storm the messages wait at Mosquitto, not in the console's memory.
   */
  constructor(
    private readonly concurrency: number,
    private readonly maxBacklog = Infinity,
  ) {}

  /** Jobs waiting or running: the console's backlog of device messages. */
  get backlog(): number {
    return this.unsettled;
  }

  /** At least half the bound is waiting: messages are read more slowly than they come (a storm). */
  get behind(): boolean {
    return this.unsettled >= this.maxBacklog / 2;
  }

  /** Resolves once no job is waiting or running (at once when none is). */
  idle(): Promise<void> {
    if (this.unsettled === 0) return Promise.resolve();
    return new Promise((resolve) => this.idlers.push(resolve));
  }

  /** Calls `go` now while the backlog is under its maximum, else once it has fallen to half. */
  admit(go: () => void): void {
    if (this.unsettled < this.maxBacklog) go();
    else this.held.push(go);
  }

  run<T>(deviceId: string, task: (release: () => void) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.unsettled++;
      const job: Job = (release) => Promise.resolve(release).then(task).then(resolve, reject);
      const queue = this.jobs.get(deviceId);
      if (queue) queue.push(job);
      else {
        this.jobs.set(deviceId, [job]);
        this.ready.push(deviceId);
      }
      this.pump();
    });
  }

  private resumeHeld() {
    const held = this.held;
    this.held = [];
    for (const go of held) go();
  }

  private pump() {
    while (this.active < this.concurrency && this.head < this.ready.length) {
      const deviceId = this.ready[this.head++]!;
      const queue = this.jobs.get(deviceId)!;
      const job = queue.shift()!;
      this.active++;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        this.active--;
        this.pump();
      };
      void job(release).finally(() => {
        if (!released) this.active--;
        released = true;
        this.unsettled--;
        if (this.held.length && this.unsettled <= this.maxBacklog / 2) this.resumeHeld();
        if (this.unsettled === 0 && this.idlers.length) {
          const idlers = this.idlers;
          this.idlers = [];
          for (const resolve of idlers) resolve();
        }
        if (queue.length) this.ready.push(deviceId);
        else this.jobs.delete(deviceId);
        this.pump();
      });
    }
    // Drop the consumed part of `ready` now and then, so a long burst does not keep it all.
    if (this.head > 1024 && this.head * 2 > this.ready.length) {
      this.ready = this.ready.slice(this.head);
      this.head = 0;
    }
  }
}
