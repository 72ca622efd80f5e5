/**
 * When an agent tries its broker again (issue 67): full jitter, so that a fleet that lost its broker
 * together (a broker restart, a network outage) does not come back in the same second and knock the
 * broker and the console behind it over again.
 *
 * - The first try after losing a connection that was up waits anywhere in [0, cap / 2) (15 s by
 *   default): a fleet of thousands comes back spread over those seconds, not in one burst.
 * - Each try that fails waits anywhere in [0, min(cap, base × 2^n)), n counting the failures.
 *
 * A connection taken starts it over. FLEETLINK_AGENT_MAX_BACKOFF_MS sets the cap (tests shorten it).
 */
export class ReconnectPolicy {
  private attempt = 0;

  constructor(private readonly o: { baseMs: number; capMs: number; random?: () => number }) {}

  /** The broker took the connection. */
  connected(): void {
    this.attempt = 0;
  }

  /** How long to wait before the next try. */
  nextDelayMs(): number {
    const n = this.attempt++;
    const window = n === 0 ? this.o.capMs / 2 : Math.min(this.o.capMs, this.o.baseMs * 2 ** n);
    return Math.round(window * (this.o.random ?? Math.random)());
  }
}
