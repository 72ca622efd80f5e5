import type { Db } from '../../db/client.js';
import type { LiveChanges } from '../live/live-bus.js';
import type { AlertsRepository } from './alerts.repository.js';

/**
 * What the sender does once it switched a webhook off (issue 66): the rule's owners hear of it in
 * their bell, live (and by mail, when the rule mails), whatever the rule's own channels say.
 */
export function tellOwnersWebhookOff(db: Db, repo: AlertsRepository, live: Pick<LiveChanges, 'alerts'>) {
  return async (rule: { id: string; organizationId: string | null }, url: string, error: string): Promise<void> => {
    const row = await repo.get(rule.organizationId, rule.id);
    if (!row) return;
    const made = await db.transaction(async (tx) => {
      const organization = row.organizationId ? { id: row.organizationId, name: await repo.organizationName(tx, row.organizationId) } : null;
      const summary = `The webhook of the alert rule '${row.name}' was switched off: every delivery to ${new URL(url).origin} failed for 24 hours (the last: ${error}) Save the rule to switch it on again.`;
      return repo.addEvent(tx, row, { type: 'webhook.off', summary, body: { rule: { id: row.id, name: row.name }, organization, count: 0, devices: [] } }, new Date(), { toOwners: true });
    });
    live.alerts(made.listeners);
  };
}
