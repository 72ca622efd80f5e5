import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * One file transfer between a person and a device through the blob store (issue 27). Its blob is
 * stored under the transfer's id, never under a name from the device or the browser. The tokens of
 * its URLs are kept as SHA-256 hashes only: a database copy opens no URL. Each side claims its URL
 * once with one conditional UPDATE, so several consoles on one database serve it exactly once.
 * No foreign key to the device: a transfer's blob must still be swept after the device is deleted.
 */
export const transfers = pgTable(
  'transfers',
  {
    id: uuid('id').primaryKey(),
    deviceId: uuid('device_id').notNull(),
    /** DOWNLOAD: device → blob → browser; UPLOAD: browser → blob → device. */
    kind: text('kind', { enum: ['DOWNLOAD', 'UPLOAD'] }).notNull(),
    /** The device path (the file to download, or the folder uploaded into), for the audit trail. */
    path: text('path').notNull(),
    /** The file's name as the person sees it: only ever a header value, never a path on the console. */
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }),
    /** Who writes the blob with a token (the agent of a download); an upload's blob comes with the person's POST. */
    writeTokenHash: text('write_token_hash'),
    writeExpiresAt: timestamp('write_expires_at', { withTimezone: true }),
    writtenAt: timestamp('written_at', { withTimezone: true }),
    /** Who reads it: the browser after a download, the agent during an upload. */
    readTokenHash: text('read_token_hash'),
    readExpiresAt: timestamp('read_expires_at', { withTimezone: true }),
    readAt: timestamp('read_at', { withTimezone: true }),
    /** When the blob was deleted (after it was read, or by the sweep). */
    removedAt: timestamp('removed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('transfers_unremoved_idx').on(t.createdAt).where(sql`removed_at IS NULL`)],
);
