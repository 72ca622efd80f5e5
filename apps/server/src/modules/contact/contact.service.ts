import type { ContactChallenge, ContactForm, ContactMessage, ContactMessageList } from '@fleetlink/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '../../auth/principal.js';
import type { Captcha } from './captcha.js';
import type { ContactMailer } from './contact-mailer.js';
import type { ContactMessageRow, ContactRepository } from './contact.repository.js';

/** Longer than a send may take (ContactMailer's connection, greeting and socket timeouts). */
const UNCONFIRMED_AFTER_MS = 10 * 60_000;

const toMessage = (r: ContactMessageRow): ContactMessage => ({
  id: r.id,
  name: r.name,
  email: r.email,
  message: r.message,
  sentBy: r.senderUsername,
  clientAddress: r.clientAddress,
  createdAt: r.createdAt.toISOString(),
  mailStatus: r.mailStatus,
  mailError: r.mailError,
});

/**
 * SPEC §7 contact: a signed-in user's message is stored first (nothing they wrote is lost), then
 * mailed to the operator when a mail server is configured; the operator reads them on /operator.
 */
export class ContactService {
  /** Mails on their way, so a test or a shutdown can wait for them. */
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly repo: ContactRepository,
    private readonly captcha: Captcha,
    private readonly mailer: ContactMailer | undefined,
    private readonly log: FastifyBaseLogger,
  ) {}

  challenge(): Promise<ContactChallenge> {
    return this.captcha.challenge() as Promise<ContactChallenge>;
  }

  async send(principal: Principal, form: ContactForm): Promise<{ id: string }> {
    await this.captcha.redeem(form.captcha);
    const row = await this.repo.insert({
      name: form.name,
      email: form.email,
      message: form.message,
      senderSubject: principal.subject,
      senderUsername: principal.username,
      clientAddress: principal.clientAddress ?? null,
      mailStatus: this.mailer ? 'SENDING' : 'NOT_CONFIGURED',
    });
    if (this.mailer) this.track(this.deliver(this.mailer, row));
    else this.log.info({ contactMessage: row.id }, 'Contact message stored; SMTP_URL is not set, so it is not mailed: read it on /operator');
    return { id: row.id };
  }

  async newest(): Promise<ContactMessageList> {
    const { rows, total } = await this.repo.newest();
    return { items: rows.map(toMessage), total };
  }

  /**
   * At start: a message left 'sending' by a console that stopped mid-way is marked failed, not sent
   * again (the mail server may have taken it). Messages this young may still be on their way from
   * another console of the same database: a send gives up well within it.
   */
  async settleInterrupted(): Promise<void> {
    const count = await this.repo.failUnconfirmed(new Date(Date.now() - UNCONFIRMED_AFTER_MS), 'The console stopped before the mail server confirmed it.');
    if (count) this.log.warn({ count }, `${count} contact message(s) were left unconfirmed by a console that stopped: marked as not mailed`);
  }

  /** Resolves when every mail started so far has been sent or refused. */
  async settled(): Promise<void> {
    await Promise.all([...this.sending]);
  }

  /** After the answer: the person does not wait on the mail server, and its refusal is the operator's to see. */
  private async deliver(mailer: ContactMailer, row: ContactMessageRow): Promise<void> {
    try {
      await mailer.send(row);
      await this.repo.setMailStatus(row.id, 'SENT');
      this.log.info({ contactMessage: row.id }, 'Contact message mailed to CONTACT_TO');
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.log.error(
        { contactMessage: row.id, mailError: reason },
        `The mail server did not take contact message ${row.id}: ${reason}. The message is stored and listed on /operator.`,
      );
      await this.repo.setMailStatus(row.id, 'FAILED', reason.slice(0, 1000)).catch((e) => this.log.error({ err: e }, 'could not record the mail failure'));
    }
  }

  private track(p: Promise<void>) {
    this.sending.add(p);
    void p.finally(() => this.sending.delete(p));
  }
}
