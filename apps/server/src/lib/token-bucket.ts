/**
 * At most `perSecond` takes a second on average, and as many at once after a quiet second: a rate
 * that lets a burst the size of one second's share through, then spaces the rest.
 */
export class TokenBucket {
  private tokens: number;
  private last = Date.now();

  constructor(private readonly perSecond: number) {
    this.tokens = perSecond;
  }

  /** Takes one when there is one. */
  take(now = Date.now()): boolean {
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
