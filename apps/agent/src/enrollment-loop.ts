import { log } from './log.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The console is away or busy: back soon. */
const FAILURE_BACKOFF = { baseMs: 1000, capMs: 60_000 };
/**
 * The console said no: nothing changes that soon (a reset key, a deleted device), so ask rarely,
 * but keep asking: a console restored from a backup, or a proxy that briefly answered for another
 * site, must not leave a whole fleet stopped for good.
 */
const REFUSAL_BACKOFF = { baseMs: 30_000, capMs: 10 * 60_000 };

/**
 * A delay that doubles per attempt up to a cap, spread over 50% to 150% of it: agents refused
 * together (a broker restart) do not all come back in the same second.
 */
export function backoffMs(attempt: number, b: { baseMs: number; capMs: number }, random = Math.random): number {
  return Math.round(Math.min(b.capMs, b.baseMs * 2 ** attempt) * (0.5 + random()));
}

export interface RetryOptions {
  /** A first run ends on a refusal (a mistyped key must not be retried); a running agent waits and asks again. */
  onRefusal: 'end' | 'retry';
  /** Checked before each attempt: a stopping agent asks no more. */
  stopped?: () => boolean;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/**
 * Tries an enrollment until it succeeds (undefined once stopped). `isRefusal` tells the console's
 * no from a failure; a failure's `retryAfterMs` (HTTP 429) is waited out.
 */
export async function retryEnrollment<T>(attempt: () => Promise<T>, isRefusal: (err: unknown) => boolean, o: RetryOptions): Promise<T | undefined> {
  const wait = o.sleep ?? sleep;
  let failures = 0;
  let refusals = 0;
  for (;;) {
    if (o.stopped?.()) return undefined;
    try {
      return await attempt();
    } catch (err) {
      const message = (err as Error).message;
      let delay: number;
      if (isRefusal(err)) {
        if (o.onRefusal === 'end') throw err;
        delay = backoffMs(refusals++, REFUSAL_BACKOFF, o.random);
        log('error', 'the console refused the enrollment, asking again later', { err: message, inMs: delay });
      } else {
        delay = Math.max(backoffMs(failures++, FAILURE_BACKOFF, o.random), (err as { retryAfterMs?: number }).retryAfterMs ?? 0);
        log('warn', 'enrollment failed, retrying', { err: message, inMs: delay });
      }
      await wait(delay);
    }
  }
}

/** Runs one task at a time: a call while one runs joins it instead of starting a second one. */
export class SingleFlight<T> {
  private running?: Promise<T>;

  run(task: () => Promise<T>): Promise<T> {
    this.running ??= task().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }
}
