import { and, eq, gt, isNull, lt, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { transfers } from '../../db/schema/index.js';

export type TransferRow = typeof transfers.$inferSelect;
export type NewTransfer = typeof transfers.$inferInsert;

/**
 * The transfers and the single use of their URLs. A claim is one conditional UPDATE: of two
 * requests with the same token, on one console or on several, exactly one gets the row.
 */
export class TransfersRepository {
  constructor(private readonly db: Db) {}

  async create(row: NewTransfer): Promise<void> {
    await this.db.insert(transfers).values(row);
  }

  /** The agent of `deviceId` begins to write the blob of a download: once, before its URL expires. */
  claimWrite(id: string, deviceId: string, tokenHash: string, now = new Date()): Promise<TransferRow | undefined> {
    return this.claim(
      { writtenAt: now },
      and(eq(transfers.deviceId, deviceId), eq(transfers.writeTokenHash, tokenHash), isNull(transfers.writtenAt), gt(transfers.writeExpiresAt, now)),
      id,
    );
  }

  /** The blob is read: by the browser (any device), or by the agent of `deviceId`; once, before its URL expires. */
  claimRead(id: string, tokenHash: string, deviceId?: string, now = new Date()): Promise<TransferRow | undefined> {
    return this.claim(
      { readAt: now },
      and(
        eq(transfers.readTokenHash, tokenHash),
        isNull(transfers.readAt),
        gt(transfers.readExpiresAt, now),
        deviceId ? eq(transfers.deviceId, deviceId) : undefined,
      ),
      id,
    );
  }

  /** The blob is complete, `size` bytes. */
  async written(id: string, size: number): Promise<void> {
    await this.db.update(transfers).set({ size }).where(eq(transfers.id, id));
  }

  /**
   * The blob of `size` bytes may now be read with the token whose hash is `tokenHash`, until
   * `expiresAt`. False when the blob is not there with that size (the sender's word is not enough).
   * Without a size, it may be read while it is still being written.
   */
  async readable(id: string, size: number | undefined, read: { tokenHash: string; expiresAt: Date }): Promise<boolean> {
    const rows = await this.db
      .update(transfers)
      .set({ readTokenHash: read.tokenHash, readExpiresAt: read.expiresAt })
      .where(and(eq(transfers.id, id), size === undefined ? undefined : eq(transfers.size, size), isNull(transfers.removedAt)))
      .returning({ id: transfers.id });
    return rows.length === 1;
  }

  async removed(id: string, now = new Date()): Promise<void> {
    await this.db.update(transfers).set({ removedAt: now }).where(and(eq(transfers.id, id), isNull(transfers.removedAt)));
  }

  /**
   * Transfers whose blob nobody will read any more: its URL expired unused, or it is older than
   * `abandonedBefore` (a console stopped in the middle of it).
   */
  async stale(now: Date, abandonedBefore: Date, limit = 500): Promise<string[]> {
    const rows = await this.db
      .select({ id: transfers.id })
      .from(transfers)
      .where(
        and(
          isNull(transfers.removedAt),
          or(
            // A URL that expired before anyone used it; one in use (a slow download going on) is not.
            and(isNull(transfers.readAt), lt(transfers.readExpiresAt, now)),
            and(isNull(transfers.writtenAt), lt(transfers.writeExpiresAt, now)),
            lt(transfers.createdAt, abandonedBefore),
          ),
        ),
      )
      .limit(limit);
    return rows.map((r) => r.id);
  }

  private async claim(set: Partial<TransferRow>, condition: SQL | undefined, id: string): Promise<TransferRow | undefined> {
    const [row] = await this.db
      .update(transfers)
      .set(set)
      .where(and(eq(transfers.id, id), isNull(transfers.removedAt), condition))
      .returning();
    return row;
  }
}
