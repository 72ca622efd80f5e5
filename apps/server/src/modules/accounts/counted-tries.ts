import { ErrorCode } from '@fleetlink/contract';
import { AppError } from '../../lib/app-error.js';

/** The shared rate limits' counter (SharedRateLimits.hit): every console of the database counts together. */
export type HitCounter = (key: string, windowMs: number) => Promise<{ current: number }>;

/**
 * Counts one try of `key` in its window; past `max` tries it is refused with 429 and `refusal`
 * (a guessed password or code, a mail sent to a typed address).
 */
export async function countTry(hit: HitCounter, key: string, limit: { max: number; windowMs: number; refusal: string }): Promise<void> {
  const { current } = await hit(key, limit.windowMs);
  if (current > limit.max) throw new AppError(429, ErrorCode.RateLimited, limit.refusal);
}
