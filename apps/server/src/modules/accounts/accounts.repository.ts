import { and, asc, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { idpAccountLinks, idpAccounts } from '../../db/schema/index.js';

export type AccountRow = typeof idpAccounts.$inferSelect;
export type AccountLinkPurpose = (typeof idpAccountLinks.$inferSelect)['purpose'];

/** The built-in provider's accounts as an ADMIN manages them, and the links mailed for them (issue 72). */
export class AccountsRepository {
  constructor(private readonly db: Db) {}

  /** A page of accounts by email; `search` finds text in the email or the name, whatever its case. */
  async page(opts: { search?: string; offset: number; limit: number }): Promise<{ rows: AccountRow[]; total: number }> {
    const where = opts.search ? sql`strpos(lower(${idpAccounts.email} || ' ' || ${idpAccounts.name}), lower(${opts.search})) > 0` : undefined;
    const [rows, [counted]] = await Promise.all([
      this.db.select().from(idpAccounts).where(where).orderBy(asc(idpAccounts.email)).offset(opts.offset).limit(opts.limit),
      this.db.select({ n: count() }).from(idpAccounts).where(where),
    ]);
    return { rows, total: counted?.n ?? 0 };
  }

  async find(id: string): Promise<AccountRow | undefined> {
    const [row] = await this.db.select().from(idpAccounts).where(eq(idpAccounts.id, id));
    return row;
  }

  async findByEmail(email: string): Promise<AccountRow | undefined> {
    const [row] = await this.db.select().from(idpAccounts).where(eq(idpAccounts.email, email));
    return row;
  }

  /** Undefined when the email is taken already (by a row another console may just have written). */
  async insert(values: { id: string; email: string; name: string; realmRoles: string[] }): Promise<AccountRow | undefined> {
    const [row] = await this.db.insert(idpAccounts).values(values).onConflictDoNothing().returning();
    return row;
  }

  async update(id: string, set: Partial<Pick<AccountRow, 'name' | 'realmRoles' | 'disabledAt' | 'passwordHash'>>): Promise<AccountRow | undefined> {
    const [row] = await this.db.update(idpAccounts).set(set).where(eq(idpAccounts.id, id)).returning();
    return row;
  }

  async remove(id: string): Promise<boolean> {
    const removed = await this.db.delete(idpAccounts).where(eq(idpAccounts.id, id)).returning({ id: idpAccounts.id });
    return removed.length > 0;
  }

  /** ADMINs who may still sign in: the last one is not disabled, demoted or deleted. */
  async activeAdmins(): Promise<string[]> {
    const rows = await this.db
      .select({ id: idpAccounts.id })
      .from(idpAccounts)
      .where(and(isNull(idpAccounts.disabledAt), sql`'ADMIN' = any(${idpAccounts.realmRoles})`));
    return rows.map((r) => r.id);
  }

  /** A new link of `purpose` for the account; the ones of the same purpose before it stop opening. */
  async newLink(accountId: string, purpose: AccountLinkPurpose, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(idpAccountLinks).where(and(eq(idpAccountLinks.accountId, accountId), eq(idpAccountLinks.purpose, purpose)));
      await tx.insert(idpAccountLinks).values({ tokenHash, accountId, purpose, expiresAt });
    });
  }

  /** The account a link opens, while it is unused and not expired at `now`. */
  async openLink(tokenHash: string, now: Date): Promise<{ purpose: AccountLinkPurpose; account: AccountRow } | undefined> {
    const [row] = await this.db
      .select({ purpose: idpAccountLinks.purpose, account: idpAccounts })
      .from(idpAccountLinks)
      .innerJoin(idpAccounts, eq(idpAccounts.id, idpAccountLinks.accountId))
      .where(and(eq(idpAccountLinks.tokenHash, tokenHash), isNull(idpAccountLinks.usedAt), gt(idpAccountLinks.expiresAt, now)));
    return row;
  }

  /**
   * Uses the link once and sets the account's password with it, in one transaction: of two
   * submissions of one link (two tabs, two consoles), only one sets the password.
   */
  async useLink(tokenHash: string, passwordHash: string, now: Date): Promise<AccountRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [used] = await tx
        .update(idpAccountLinks)
        .set({ usedAt: now })
        .where(and(eq(idpAccountLinks.tokenHash, tokenHash), isNull(idpAccountLinks.usedAt), gt(idpAccountLinks.expiresAt, now)))
        .returning({ accountId: idpAccountLinks.accountId });
      if (!used) return undefined;
      const [account] = await tx.update(idpAccounts).set({ passwordHash }).where(eq(idpAccounts.id, used.accountId)).returning();
      return account;
    });
  }
}
