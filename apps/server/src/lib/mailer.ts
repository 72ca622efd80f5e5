import { createTransport, type Transporter } from 'nodemailer';

/** A mail the console sends: plain text; `replyTo` when someone else should get the answer. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  replyTo?: { name: string; address: string };
}

/** The mail server would not take a message: its answer (`550 5.7.1 …`), or what went wrong on the way. */
export class MailRefusedError extends Error {}

/** The words a person reads when a mail was not sent because the console has no mail server. */
export const NO_MAIL_SERVER = 'The console cannot send mail: the operator has not set SMTP_URL.';

/**
 * The console's one way to mail (the contact form, alerts, invitations and password links):
 * nodemailer over SMTP_URL (`smtp://user:pass@host:587` or `smtps://…`, never logged), one pooled
 * transport for all of them, from CONTACT_FROM, with bounded waits, so a mail server that hangs
 * cannot keep a message 'sending' for good.
 */
export class Mailer {
  constructor(
    private readonly transport: Pick<Transporter, 'sendMail' | 'close'>,
    private readonly from: string,
  ) {}

  /** Sends it, or throws MailRefusedError with the reason. */
  async send(message: MailMessage): Promise<void> {
    try {
      await this.transport.sendMail({ from: this.from, ...message });
    } catch (err) {
      throw new MailRefusedError(describeMailError(err));
    }
  }

  /** Null when the mail server took it; otherwise why it was not sent, as a person reads it. */
  async trySend(message: MailMessage): Promise<string | null> {
    try {
      await this.send(message);
      return null;
    } catch (err) {
      return `The mail server did not take it: ${(err as Error).message}`;
    }
  }

  close(): void {
    this.transport.close();
  }
}

/** The console's mailer when SMTP_URL is set. */
export function createMailer(env: { SMTP_URL?: string; CONTACT_FROM: string }): Mailer | undefined {
  if (!env.SMTP_URL) return undefined;
  return new Mailer(createTransport({ url: env.SMTP_URL, connectionTimeout: 20_000, greetingTimeout: 20_000, socketTimeout: 60_000 }), env.CONTACT_FROM);
}

function describeMailError(err: unknown): string {
  const e = err as { response?: string; responseCode?: number; code?: string; message?: string };
  if (e.response) return e.response;
  return [e.code, e.message].filter(Boolean).join(': ') || 'unknown error';
}
