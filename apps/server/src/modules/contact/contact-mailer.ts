import type { Mailer } from '../../lib/mailer.js';
import type { ContactMessageRow } from './contact.repository.js';

/**
 * Mails a contact message to the operator's address (CONTACT_TO). The sender's address goes in
 * Reply-To, not From: the console's mail server may only send as its own address.
 */
export class ContactMailer {
  constructor(
    private readonly mailer: Pick<Mailer, 'send'>,
    private readonly to: string,
  ) {}

  /** Throws MailRefusedError when the mail server would not take it. */
  send(message: ContactMessageRow): Promise<void> {
    return this.mailer.send({
      to: this.to,
      replyTo: { name: message.name, address: message.email },
      subject: `Contact form: ${message.name}`,
      text: [`From: ${message.name} <${message.email}>`, `Account: ${message.senderUsername}`, `Sent: ${message.createdAt.toISOString()}`, '', message.message].join('\n'),
    });
  }
}
