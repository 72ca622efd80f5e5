/**
 * Items gathered for `waitMs` (or until `max` wait) and written together by `write`, one write at a
 * time: a burst gathers its next batch while the last one is written. Each `add` resolves once its
 * item's write has ended, with what `write` answered for it (in the items' order), or rejects with
 * the write's error. Nothing bounds the items here: a caller adds at most one per device at a time.
 */
export class WriteBatch<In, Out> {
  private items: { item: In; resolve(out: Out): void; reject(err: Error): void }[] = [];
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly o: { max: number; waitMs: number; write(items: In[]): Promise<Out[]> }) {}

  add(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.items.push({ item, resolve, reject });
      if (this.items.length >= this.o.max) void this.flush();
      else this.timer ??= setTimeout(() => void this.flush(), this.o.waitMs);
    });
  }

  /** Writes what waits now; resolves when it and every earlier write have ended. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.items;
    this.items = [];
    this.writing = this.writing.then(async () => {
      if (!batch.length) return;
      try {
        const out = await this.o.write(batch.map((b) => b.item));
        batch.forEach((b, i) => b.resolve(out[i]!));
      } catch (err) {
        batch.forEach((b) => b.reject(err as Error));
      }
    });
    return this.writing;
  }
}
