import { and, count, eq, isNull, or, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { idpAccounts, idpRecoveryCodes, idpSettings } from '../../db/schema/index.js';

/**
 * The realm's rule, as SQL over an account's row: it is an ADMIN while ADMINs must use a second
 * factor. One expression for the profile, the sign-in and the provider's refresh (AccountStore).
 */
export const secondFactorRequired = sql<boolean>`('ADMIN' = any(${idpAccounts.realmRoles}) and coalesce((select ${idpSettings.adminTwoFactorRequired} from ${idpSettings} where ${idpSettings.id} = 1), false))`;

/** An account's second factor as stored (the secrets still sealed), and whether the realm requires one of it. */
export interface TwoFactorRow {
  id: string;
  email: string;
  totpSecret: string | null;
  totpLastStep: number | null;
  totpPendingSecret: string | null;
  required: boolean;
}

/** The built-in provider's second factors and recovery codes, and the realm's rule requiring them (issue 72). */
export class TwoFactorRepository {
  constructor(private readonly db: Db) {}

  async find(accountId: string): Promise<TwoFactorRow | undefined> {
    const a = idpAccounts;
    const [row] = await this.db
      .select({ id: a.id, email: a.email, totpSecret: a.totpSecret, totpLastStep: a.totpLastStep, totpPendingSecret: a.totpPendingSecret, required: secondFactorRequired })
      .from(a)
      .where(eq(a.id, accountId));
    return row;
  }

  async setPending(accountId: string, sealedSecret: string): Promise<void> {
    await this.db.update(idpAccounts).set({ totpPendingSecret: sealedSecret }).where(eq(idpAccounts.id, accountId));
  }

  /**
   * Turns the pending secret on with the step of the code that proved it, and keeps the recovery
   * codes' hashes in place of any before; false when the pending secret changed meanwhile (set up
   * again in another tab).
   */
  async enable(accountId: string, pendingSealed: string, secretSealed: string, step: number, codeHashes: string[], now: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const a = idpAccounts;
      const [on] = await tx
        .update(a)
        .set({ totpSecret: secretSealed, totpPendingSecret: null, totpEnabledAt: now, totpLastStep: step })
        .where(and(eq(a.id, accountId), eq(a.totpPendingSecret, pendingSealed)))
        .returning({ id: a.id });
      if (!on) return false;
      await this.replaceCodes(tx, accountId, codeHashes);
      return true;
    });
  }

  async replaceRecoveryCodes(accountId: string, codeHashes: string[]): Promise<void> {
    await this.db.transaction((tx) => this.replaceCodes(tx, accountId, codeHashes));
  }

  private async replaceCodes(tx: Pick<Db, 'delete' | 'insert'>, accountId: string, codeHashes: string[]) {
    await tx.delete(idpRecoveryCodes).where(eq(idpRecoveryCodes.accountId, accountId));
    await tx.insert(idpRecoveryCodes).values(codeHashes.map((codeHash) => ({ accountId, codeHash })));
  }

  /** Off: the secret, the pending one and the recovery codes go. */
  async disable(accountId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(idpAccounts)
        .set({ totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null })
        .where(eq(idpAccounts.id, accountId))
        .returning({ id: idpAccounts.id });
      await tx.delete(idpRecoveryCodes).where(eq(idpRecoveryCodes.accountId, accountId));
      return !!row;
    });
  }

  /**
   * Takes the step of a right code as the last one used, unless it is not later than the last (the
   * same code used twice, here or on another console at the same moment): then false.
   */
  async useStep(accountId: string, step: number): Promise<boolean> {
    const a = idpAccounts;
    const used = await this.db
      .update(a)
      .set({ totpLastStep: step })
      .where(and(eq(a.id, accountId), or(isNull(a.totpLastStep), lt(a.totpLastStep, step))))
      .returning({ id: a.id });
    return used.length > 0;
  }

  /** Uses a recovery code once; false when it is not one of the account's, or was used. */
  async useRecoveryCode(accountId: string, codeHash: string, now: Date): Promise<boolean> {
    const r = idpRecoveryCodes;
    const used = await this.db
      .update(r)
      .set({ usedAt: now })
      .where(and(eq(r.accountId, accountId), eq(r.codeHash, codeHash), isNull(r.usedAt)))
      .returning({ accountId: r.accountId });
    return used.length > 0;
  }

  async recoveryCodesLeft(accountId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(idpRecoveryCodes)
      .where(and(eq(idpRecoveryCodes.accountId, accountId), isNull(idpRecoveryCodes.usedAt)));
    return row?.n ?? 0;
  }

  async adminTwoFactorRequired(): Promise<boolean> {
    const [row] = await this.db.select().from(idpSettings).where(eq(idpSettings.id, 1));
    return row?.adminTwoFactorRequired ?? false;
  }

  async setAdminTwoFactorRequired(required: boolean): Promise<void> {
    await this.db
      .insert(idpSettings)
      .values({ id: 1, adminTwoFactorRequired: required })
      .onConflictDoUpdate({ target: idpSettings.id, set: { adminTwoFactorRequired: sql`excluded.admin_two_factor_required` } });
  }
}
