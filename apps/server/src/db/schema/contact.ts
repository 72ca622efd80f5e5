import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ContactMailStatus } from '@fleetlink/contract';

/**
 * SPEC §3 Contact message: what a signed-in user sent through /contact, kept whether or not it
 * could be mailed, with the account and address it came from (the rate limits' subjects).
 */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    message: text('message').notNull(),
    senderSubject: text('sender_subject').notNull(),
    senderUsername: text('sender_username').notNull(),
    clientAddress: text('client_address'),
    mailStatus: text('mail_status').$type<ContactMailStatus>().notNull(),
    mailError: text('mail_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('contact_messages_created_idx').on(t.createdAt.desc())],
);

/**
 * CAPTCHA challenges whose solution was accepted, by the challenge's signature: a solution is
 * accepted once. Kept until the challenge expires, after which its signature is refused anyway.
 */
export const captchaRedemptions = pgTable('captcha_redemptions', {
  signature: text('signature').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
