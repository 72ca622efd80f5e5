import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { idpSignInFailures } from '../db/schema/index.js';

export interface SignInLimitSettings {
  /** Failed sign-ins of one login that cost nothing; each one after doubles the wait. */
  accountFreeFailures: number;
  /** The same for one client address, which many people behind one NAT may share. */
  addressFreeFailures: number;
  /** The longest wait, in seconds. */
  maxDelaySeconds: number;
}

/** Failures older than this, with none since, are forgotten (Keycloak's brute-force default too). */
const FORGET_AFTER = '12 hours';

/**
 * Seconds the next attempt must wait after `failures` failed ones: nothing for the free ones, then
 * 2, 4, 8, … up to the maximum, so guessing slows to a few tries an hour while a person who
 * mistyped a few times waits seconds.
 */
export function delayAfter(failures: number, free: number, maxDelaySeconds: number): number {
  if (failures <= free) return 0;
  return Math.min(2 ** Math.min(failures - free, 30), maxDelaySeconds);
}

export type Claim = { allowed: true } | { allowed: false; by: 'account' | 'address'; retryAfterSeconds: number };

/**
 * Limits password guessing at the built-in provider, per login and per client address, in the
 * database so every instance of one console counts together. An attempt is counted as a failure
 * before its password is checked (one atomic statement that also refuses it while a wait is due),
 * so parallel guesses cannot all slip through in the time one check takes; a success takes it back.
 */
export class SignInLimits {
  constructor(
    private readonly db: Db,
    private readonly settings: SignInLimitSettings,
  ) {}

  async claim(login: string, clientAddress: string): Promise<Claim> {
    const address = await this.count(`address:${clientAddress}`, this.settings.addressFreeFailures);
    if (address !== true) return { allowed: false, by: 'address', retryAfterSeconds: address };
    const account = await this.count(`account:${login}`, this.settings.accountFreeFailures);
    if (account !== true) {
      await this.uncount(`address:${clientAddress}`);
      return { allowed: false, by: 'account', retryAfterSeconds: account };
    }
    return { allowed: true };
  }

  /** The password was right: the login starts afresh, and the address's claimed failure is taken back. */
  async succeeded(login: string, clientAddress: string): Promise<void> {
    await this.db.delete(idpSignInFailures).where(eq(idpSignInFailures.key, `account:${login}`));
    await this.uncount(`address:${clientAddress}`);
  }

  /** Counts one failure for `key` unless a wait is due; true when counted, else the seconds left. */
  private async count(key: string, free: number): Promise<true | number> {
    const t = idpSignInFailures;
    const max = this.settings.maxDelaySeconds;
    // The same rule as delayAfter, for the row as it stands before this attempt.
    const due = sql`${t.lastFailure} + make_interval(secs => case when ${t.failures} <= ${free} then 0 else least(power(2, least(${t.failures} - ${free}, 30)), ${max}) end)`;
    const stale = sql`${t.lastFailure} < now() - interval '${sql.raw(FORGET_AFTER)}'`;
    const counted = await this.db
      .insert(t)
      .values({ key, failures: 1, lastFailure: sql`now()` })
      .onConflictDoUpdate({
        target: t.key,
        set: { failures: sql`case when ${stale} then 1 else ${t.failures} + 1 end`, lastFailure: sql`now()` },
        // The free failures pass whatever the clock says: now() is each transaction's start, so a
        // concurrent attempt may see the row stamped a moment after its own now().
        setWhere: sql`${t.failures} <= ${free} or ${due} <= now() or ${stale}`,
      })
      .returning({ failures: t.failures });
    if (counted.length) return true;
    const [row] = await this.db
      .select({ seconds: sql<number>`ceil(extract(epoch from (${due} - now())))::int` })
      .from(t)
      .where(eq(t.key, key));
    return Math.max(1, Number(row?.seconds ?? 1));
  }

  /** Drops the counts that are forgotten anyway, so made-up logins do not pile up. */
  async purgeForgotten(): Promise<void> {
    await this.db.delete(idpSignInFailures).where(sql`${idpSignInFailures.lastFailure} < now() - interval '${sql.raw(FORGET_AFTER)}'`);
  }

  private async uncount(key: string): Promise<void> {
    const t = idpSignInFailures;
    await this.db.update(t).set({ failures: sql`greatest(${t.failures} - 1, 0)` }).where(eq(t.key, key));
  }
}

/** '8 seconds', '1 second', '3 minutes' (rounded up): how long the sign-in page says to wait. */
export function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
