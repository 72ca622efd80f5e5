import { lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { captchaRedemptions } from '../../db/schema/index.js';

/** Which CAPTCHA challenges have been answered already: each is accepted once. */
export class CaptchaRedemptionsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Records that the challenge with this signature was answered; false when it was already. One
   * statement, so two requests with the same answer at once cannot both pass, on any instance.
   */
  async redeem(signature: string, expiresAt: Date): Promise<boolean> {
    // A challenge past its expiry is refused on its own date, so its row is no longer needed.
    await this.db.delete(captchaRedemptions).where(lt(captchaRedemptions.expiresAt, sql`now()`));
    const inserted = await this.db.insert(captchaRedemptions).values({ signature, expiresAt }).onConflictDoNothing().returning();
    return inserted.length === 1;
  }
}
