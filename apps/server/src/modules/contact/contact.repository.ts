import { CONTACT_MESSAGES_PAGE, type ContactMailStatus } from '@fleetlink/contract';
import { and, count, desc, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { contactMessages } from '../../db/schema/index.js';

export type ContactMessageRow = typeof contactMessages.$inferSelect;
export type ContactMessageInsert = Omit<typeof contactMessages.$inferInsert, 'id' | 'createdAt'>;

/** SQL of the messages sent through /contact. */
export class ContactRepository {
  constructor(private readonly db: Db) {}

  async insert(message: ContactMessageInsert): Promise<ContactMessageRow> {
    const [row] = await this.db.insert(contactMessages).values(message).returning();
    return row;
  }

  async setMailStatus(id: string, mailStatus: ContactMailStatus, mailError: string | null = null): Promise<void> {
    await this.db.update(contactMessages).set({ mailStatus, mailError }).where(eq(contactMessages.id, id));
  }

  /** Messages still 'sending' since before `before`: their console stopped before the mail server answered. */
  async failUnconfirmed(before: Date, reason: string): Promise<number> {
    const rows = await this.db
      .update(contactMessages)
      .set({ mailStatus: 'FAILED', mailError: reason })
      .where(and(eq(contactMessages.mailStatus, 'SENDING'), lt(contactMessages.createdAt, before)))
      .returning({ id: contactMessages.id });
    return rows.length;
  }

  /** The newest messages first, and how many there are. */
  async newest(limit = CONTACT_MESSAGES_PAGE): Promise<{ rows: ContactMessageRow[]; total: number }> {
    const rows = await this.db.select().from(contactMessages).orderBy(desc(contactMessages.createdAt), desc(contactMessages.id)).limit(limit);
    const [{ total }] = await this.db.select({ total: count() }).from(contactMessages);
    return { rows, total };
  }
}
