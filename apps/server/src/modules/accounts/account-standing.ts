import { eq } from 'drizzle-orm';
import type { ChangeNotices } from '../../db/change-notices.js';
import type { Db } from '../../db/client.js';
import { idpAccounts } from '../../db/schema/index.js';

/** Accounts whose standing one console remembers; past this it forgets them all and reads again. */
const REMEMBERED_MAX = 50_000;

/**
 * Whether a built-in account may still act (issue 72): it exists and is not disabled. The access
 * tokens the provider issued stay valid until they expire, so every request's token is checked
 * here, from memory; a change (disable, enable, delete) is told to the other consoles of the
 * database, which forget what they knew of that account (all of it, after losing their notices).
 */
export class AccountStanding {
  private readonly active = new Map<string, boolean>();
  /** Counts the changes heard: a read that raced one is not remembered (it may be from before it). */
  private changes = 0;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly db: Db,
    private readonly notices: ChangeNotices,
  ) {
    notices.on('accounts', (data) => {
      const id = (data as { id?: unknown } | undefined)?.id;
      this.changes++;
      if (typeof id === 'string') this.active.delete(id);
      else this.active.clear();
      this.told();
    });
  }

  /** Called after any account's standing may have changed here or on another console (sessions it holds open check theirs again). */
  onChange(listener: () => void): void {
    this.listeners.add(listener);
  }

  private told() {
    for (const l of this.listeners) l();
  }

  async isActive(accountId: string): Promise<boolean> {
    const known = this.active.get(accountId);
    if (known !== undefined) return known;
    const changes = this.changes;
    const [row] = await this.db.select({ disabledAt: idpAccounts.disabledAt }).from(idpAccounts).where(eq(idpAccounts.id, accountId));
    const active = !!row && !row.disabledAt;
    if (changes !== this.changes) return active;
    if (this.active.size >= REMEMBERED_MAX) this.active.clear();
    this.active.set(accountId, active);
    return active;
  }

  /** After an account was disabled, enabled or deleted: this console and the others read it again. */
  async changed(accountId: string): Promise<void> {
    this.changes++;
    this.active.delete(accountId);
    this.told();
    await this.notices.publish('accounts', { id: accountId });
  }
}
