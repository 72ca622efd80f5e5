import { createMailTransport, describeMailError } from '../../lib/mail-transport.js';
import type { ContactMessageRow } from './contact.repository.js';

export interface MailSettings {
  /** `smtp://user:pass@host:587` or `smtps://…`: nodemailer's connection URL (never logged). */
  smtpUrl: string;
  to: string;
  from: string;
}

/** What the mail server answered when it would not take a message. */
export class MailRefusedError extends Error {}

/**
 * Mails a contact message to the operator's address. The sender's address goes in Reply-To, not
 * From: the console's mail server may only send as its own address.
 */
export class ContactMailer {
  private readonly transport;

  constructor(private readonly settings: MailSettings) {
    this.transport = createMailTransport(settings.smtpUrl);
  }

  async send(message: ContactMessageRow): Promise<void> {
    try {
      await this.transport.sendMail({
        from: this.settings.from,
        to: this.settings.to,
        replyTo: { name: message.name, address: message.email },
        subject: `Contact form: ${message.name}`,
        text: [
          `From: ${message.name} <${message.email}>`,
          `Account: ${message.senderUsername}`,
          `Sent: ${message.createdAt.toISOString()}`,
          '',
          message.message,
        ].join('\n'),
      });
    } catch (err) {
      throw new MailRefusedError(describeMailError(err));
    }
  }

  close() {
    this.transport.close();
  }
}
