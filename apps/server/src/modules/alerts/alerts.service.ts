import { randomBytes } from 'node:crypto';
import {
  alertConditionLabels,
  alertLimits,
  AuditKind,
  REALM_CONDITIONS,
  type AlertInbox,
  type AlertRule,
  type AlertRuleForm,
  type AlertRuleSaved,
  type WebhookDelivery,
} from '@fleetlink/contract';
import type { Principal } from '../../auth/principal.js';
import type { Db } from '../../db/client.js';
import { badRequest, conflict, notFound } from '../../lib/app-error.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { OrganizationPolicy } from '../organizations/organization.policy.js';
import { sealedAs } from '../system/secrets-at-rest.js';
import type { AlertSender } from './alert-sender.js';
import type { AlertRuleRow, AlertsRepository, DeliveryRow } from './alerts.repository.js';
import { refusedUrl } from './webhook-target.js';

/** `whsec_` and 32 random bytes: what a receiver checks signatures with. */
const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toAlertRule(row: AlertRuleRow): AlertRule {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    enabled: row.enabled,
    condition: row.condition,
    devices: row.devices,
    notify: { console: row.notifyConsole, emails: row.emails },
    webhook: row.webhookUrl ? { url: row.webhookUrl, disabledAt: iso(row.webhookDisabledAt) } : null,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toDelivery(row: { delivery: DeliveryRow; type: WebhookDelivery['type']; summary: string }): WebhookDelivery {
  const d = row.delivery;
  return {
    id: d.id,
    channel: d.channel,
    target: d.target,
    eventId: d.eventId,
    type: row.type,
    summary: row.summary,
    state: d.state,
    attempts: d.attempts,
    lastStatus: d.lastStatus,
    lastLatencyMs: d.lastLatencyMs,
    lastError: d.lastError,
    nextAttemptAt: iso(d.nextAttemptAt),
    createdAt: d.createdAt.toISOString(),
  };
}

/** Whose rules: an organization's (its CREATOR and ADMINs manage them) or the realm's (null: realm ADMINs, checked by the routes). */
export type AlertScope = string | null;

/** Alert rules and the bell (issue 66); evaluating and sending are the evaluator's and the sender's. */
export class AlertsService {
  constructor(
    private readonly o: {
      db: Db;
      repo: AlertsRepository;
      policy: OrganizationPolicy;
      audit: AuditTrail;
      box: SecretBox;
      sender: AlertSender;
      allowPrivate: boolean;
      /** The console's own origins (PUBLIC_URL's, its port on loopback): a webhook may not call them. */
      consoleOrigins: string[];
      /** Whether SMTP_URL is set: without it a rule cannot mail. */
      canMail: boolean;
      /** Told who read alerts, so their other pages' bells follow. */
      heard: (usernames: string[]) => void;
    },
  ) {}

  async list(p: Principal, scope: AlertScope): Promise<{ items: AlertRule[] }> {
    await this.manage(p, scope);
    return { items: (await this.o.repo.list(scope)).map(toAlertRule) };
  }

  create(p: Principal, scope: AlertScope, form: AlertRuleForm): Promise<AlertRuleSaved> {
    return this.o.audit.track(
      p,
      { kind: AuditKind.AlertRuleCreate, organizationId: scope ?? undefined, details: this.details(form) },
      async () => {
        await this.manage(p, scope);
        if ((await this.o.repo.countIn(scope)) >= alertLimits.perOrganization) {
          throw conflict(`${scope ? 'An organization' : 'The realm'} can have at most ${alertLimits.perOrganization} alert rules.`);
        }
        this.check(scope, form);
        const secret = form.webhookUrl ? newWebhookSecret() : null;
        const row = await this.o.repo.create(scope, form, secret && this.seal(secret), p.username);
        return { ...toAlertRule(row), webhookSecret: secret };
      },
      (saved) => ({ details: { ruleId: saved.id } }),
    );
  }

  /** A new webhook URL gets a new secret (shown in this answer); the same URL keeps its secret, and saving switches a webhook that was off on again. */
  update(p: Principal, scope: AlertScope, ruleId: string, form: AlertRuleForm): Promise<AlertRuleSaved> {
    return this.o.audit.track(p, { kind: AuditKind.AlertRuleUpdate, organizationId: scope ?? undefined, details: { ruleId, ...this.details(form) } }, async () => {
      const rule = await this.rule(p, scope, ruleId);
      this.check(scope, form);
      const newUrl = form.webhookUrl !== rule.webhookUrl;
      const secret = form.webhookUrl && newUrl ? newWebhookSecret() : null;
      const row = await this.o.repo.update(rule, form, newUrl ? secret && this.seal(secret) : undefined);
      if (!row) throw notFound('Alert rule not found.');
      return { ...toAlertRule(row), webhookSecret: secret };
    });
  }

  remove(p: Principal, scope: AlertScope, ruleId: string): Promise<void> {
    return this.o.audit.track(p, { kind: AuditKind.AlertRuleDelete, organizationId: scope ?? undefined, details: { ruleId } }, async () => {
      const rule = await this.rule(p, scope, ruleId);
      if (!(await this.o.repo.remove(rule.id))) throw notFound('Alert rule not found.');
    });
  }

  /** Sends the rule's webhook a test event now, and answers how it went (a test is not tried again). */
  async test(p: Principal, scope: AlertScope, ruleId: string): Promise<WebhookDelivery> {
    const rule = await this.rule(p, scope, ruleId);
    if (!rule.webhookUrl) throw conflict('This rule has no webhook to test: add a webhook URL first.');
    this.checkUrl(rule.webhookUrl);
    const summary = `A test of the alert rule '${rule.name}', sent by ${p.username}.`;
    const claimed = await this.o.db.transaction(async (tx) => {
      const made = await this.o.repo.addEvent(tx, rule, { type: 'test', summary, body: await this.o.repo.eventBody(tx, rule) }, new Date(), { claim: true });
      return (await this.o.repo.claimed(tx, made.deliveryIds))[0]!;
    });
    await this.o.sender.send(claimed, { retry: false });
    const [sent] = await this.o.repo.deliveries(rule.id, claimed.delivery.id);
    return toDelivery(sent!);
  }

  async deliveries(p: Principal, scope: AlertScope, ruleId: string): Promise<{ items: WebhookDelivery[] }> {
    const rule = await this.rule(p, scope, ruleId);
    return { items: (await this.o.repo.deliveries(rule.id)).map(toDelivery) };
  }

  /** The signed-in person's bell. */
  async inbox(p: Principal): Promise<AlertInbox> {
    const { unread, items } = await this.o.repo.inbox(p.username);
    return {
      unread,
      items: items.map((i) => ({
        id: i.id,
        type: i.type,
        summary: i.summary,
        rule: i.body.rule,
        organization: i.body.organization,
        createdAt: i.createdAt.toISOString(),
        read: i.readAt !== null,
      })),
    };
  }

  async markRead(p: Principal, ids: string[] | undefined): Promise<AlertInbox> {
    await this.o.repo.markRead(p.username, ids, new Date());
    this.o.heard([p.username]);
    return this.inbox(p);
  }

  private async manage(p: Principal, scope: AlertScope): Promise<void> {
    if (scope) await this.o.policy.manageOrganization(p, scope);
  }

  private async rule(p: Principal, scope: AlertScope, ruleId: string): Promise<AlertRuleRow> {
    await this.manage(p, scope);
    const rule = await this.o.repo.get(scope, ruleId);
    if (!rule) throw notFound('Alert rule not found.');
    return rule;
  }

  private check(scope: AlertScope, form: AlertRuleForm): void {
    const realmOnly = REALM_CONDITIONS.includes(form.condition.kind);
    if (scope && realmOnly) {
      throw badRequest(`'${alertConditionLabels[form.condition.kind]}' is a realm administrator's rule, on the whole fleet (Manage, Alerts).`, { condition: 'Not for an organization.' });
    }
    if (!scope && !realmOnly) {
      throw badRequest(`The realm's rules are about the whole fleet: '${alertConditionLabels.ROLLOUT_HALTED}'. Rules on devices belong to their organization.`, { condition: 'Not for the realm.' });
    }
    if (form.notify.emails.length && !this.o.canMail) {
      const message = 'The console cannot send mail: the operator has not set SMTP_URL. Remove the mail addresses, or ask the operator.';
      throw badRequest(message, { 'notify.emails': message });
    }
    this.checkUrl(form.webhookUrl);
  }

  private checkUrl(url: string | null): void {
    const refused = url ? refusedUrl(url, { allowPrivate: this.o.allowPrivate, consoleOrigins: this.o.consoleOrigins }) : undefined;
    if (refused) throw badRequest(refused, { webhookUrl: refused });
  }

  private seal(secret: string): string {
    return this.o.box.seal(secret, sealedAs.webhookSecret);
  }

  /** What the audit trail keeps of a form: never a secret (a URL may hold a token in its path or query: only its origin). */
  private details(form: AlertRuleForm) {
    return { name: form.name, condition: form.condition.kind, webhook: form.webhookUrl ? new URL(form.webhookUrl).origin : null, emails: form.notify.emails.length };
  }
}
