import { AuditKind } from '@fleetlink/contract';
import { NO_MAIL_SERVER, type Mailer } from '../../lib/mailer.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { sealedAs } from '../system/secrets-at-rest.js';
import { alertMail } from './alert-mail.js';
import type { AlertRuleRow, AlertsRepository, ClaimedDelivery } from './alerts.repository.js';
import { postWebhook, type WebhookAnswer } from './webhook-post.js';

/** A delivery is tried for this long after its event, and a webhook failing this long is switched off. */
export const WEBHOOK_GIVE_UP_MS = 24 * 3600_000;
/** The longest wait between two tries. */
const RETRY_MAX_MS = 3600_000;
/** Deliveries claimed per round, and sent at once. */
const BATCH = 20;

/** The wait before try `attempts + 1`: `retrySeconds`, doubling with each try, at most an hour. */
export function retryDelayMs(attempts: number, retrySeconds: number): number {
  return Math.min(retrySeconds * 1000 * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS);
}

/**
 * Sends due alert deliveries (issue 66), webhooks and mails: each claimed by one console
 * (alerts.repository claimDue), a webhook signed with its rule's secret; recorded as delivered (a
 * 2xx, the mail server took it), to be tried again with backoff, or given up 24 hours after its
 * event. A webhook that failed every try for 24 hours is switched off; the organization's Activity
 * tab records it, and `switchedOff` tells the rule's owners.
 */
export class AlertSender {
  constructor(
    private readonly o: {
      repo: AlertsRepository;
      box: SecretBox;
      audit: AuditTrail;
      /** The console's mailer (SMTP_URL); without it a mail delivery fails and says why. */
      mail?: Pick<Mailer, 'trySend'>;
      consoleUrl: string;
      retrySeconds: number;
      allowPrivate: boolean;
      switchedOff: (rule: AlertRuleRow, url: string, error: string) => Promise<void>;
      timeoutMs?: number;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.o.now?.() ?? new Date();
  }

  async tick(): Promise<void> {
    for (;;) {
      const claimed = await this.o.repo.claimDue(this.now(), BATCH);
      if (!claimed.length) return;
      await Promise.all(claimed.map((c) => this.send(c)));
      if (claimed.length < BATCH) return;
    }
  }

  /** Sends one claimed delivery and records how it went; `retry: false` for a test, which is said once. */
  async send(c: ClaimedDelivery, o: { retry?: boolean } = {}): Promise<WebhookAnswer> {
    const { repo } = this.o;
    const { delivery } = c;
    const answer = delivery.channel === 'EMAIL' ? await this.mail(c) : await this.post(c);
    const ok = answer.status !== undefined && answer.status >= 200 && answer.status < 300;
    const error = ok ? undefined : (answer.error ?? `The receiver answered ${answer.status}.`);
    const now = this.now();
    if (ok) {
      await repo.recordAttempt(delivery.id, { state: 'DELIVERED', status: answer.status, latencyMs: answer.latencyMs, nextAttemptAt: null });
      if (delivery.channel === 'WEBHOOK') await repo.webhookWorks(delivery.ruleId);
      return answer;
    }
    const next = new Date(now.getTime() + retryDelayMs(delivery.attempts, this.o.retrySeconds));
    const givenUp = o.retry === false || next.getTime() - delivery.createdAt.getTime() > WEBHOOK_GIVE_UP_MS;
    await repo.recordAttempt(delivery.id, { state: givenUp ? 'FAILED' : 'PENDING', status: answer.status, latencyMs: answer.latencyMs, error, nextAttemptAt: givenUp ? null : next });
    if (o.retry === false || delivery.channel !== 'WEBHOOK') return answer;
    const failingSince = await repo.webhookFails(delivery.ruleId, now);
    if (now.getTime() - failingSince.getTime() >= WEBHOOK_GIVE_UP_MS) {
      const rule = await repo.disableWebhook(delivery.ruleId, now);
      if (rule) {
        await this.o.audit.record(
          { username: null, subject: null },
          { kind: AuditKind.AlertWebhookOff, organizationId: rule.organizationId ?? undefined, details: { rule: rule.name, url: new URL(delivery.target).origin, lastError: error } },
          { error: null },
        );
        await this.o.switchedOff(rule, delivery.target, error!);
      }
    }
    return answer;
  }

  private post(c: ClaimedDelivery): Promise<WebhookAnswer> {
    const secret = c.sealedSecret ? this.o.box.open(c.sealedSecret, sealedAs.webhookSecret) : '';
    return postWebhook(c.delivery.target, JSON.stringify(c.body), secret, { allowPrivate: this.o.allowPrivate, timeoutMs: this.o.timeoutMs, now: this.now() });
  }

  /** A mail taken by the server counts as 250 (SMTP's yes); refused, its words are the error. */
  private async mail(c: ClaimedDelivery): Promise<WebhookAnswer> {
    const started = performance.now();
    const latencyMs = () => Math.round(performance.now() - started);
    if (!this.o.mail) return { latencyMs: 0, error: NO_MAIL_SERVER };
    const error = await this.o.mail.trySend({ to: c.delivery.target, ...alertMail(c.body, this.o.consoleUrl) });
    return error === null ? { status: 250, latencyMs: latencyMs() } : { latencyMs: latencyMs(), error };
  }
}
