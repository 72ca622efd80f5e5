import type { Db } from '../../db/client.js';
import type { LiveChanges } from '../live/live-bus.js';
import type { AlertRuleRow, AlertsRepository } from './alerts.repository.js';

/**
 * What the sender does once it switched a webhook off (issue 66): the rule's owners hear of it in
 * their bell, live (and by mail, when the rule mails), whatever the rule's own channels say.
 */
export function tellOwnersWebhookOff(db: Db, repo: AlertsRepository, live: Pick<LiveChanges, 'alerts'>) {
  /** `rule` as switching it off left it (its webhook off, so this event goes to the bell and mail only). */
  return async (rule: AlertRuleRow, url: string, error: string): Promise<void> => {
    const made = await db.transaction(async (tx) => {
      const summary = `The webhook of the alert rule '${rule.name}' was switched off: every delivery to ${new URL(url).origin} failed for 24 hours (the last: ${error}) Save the rule to switch it on again.`;
      return repo.addEvent(tx, rule, { type: 'webhook.off', summary, body: await repo.eventBody(tx, rule) }, new Date(), { toOwners: true });
    });
    live.alerts(made.listeners);
  };
}
