import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.js';
import type { Env } from '../../env.js';
import type { Mailer } from '../../lib/mailer.js';
import { PeriodicTask } from '../../lib/periodic-task.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { LiveChanges } from '../live/live-bus.js';
import type { OrganizationPolicy } from '../organizations/organization.policy.js';
import { AlertEvaluator } from './alert-evaluator.js';
import { AlertSender } from './alert-sender.js';
import { AlertsRepository } from './alerts.repository.js';
import { alertRoutes } from './alerts.routes.js';
import { AlertsService } from './alerts.service.js';
import { tellOwnersWebhookOff } from './webhook-off.js';

/** The console's own origins: PUBLIC_URL's, and its port on loopback (a webhook there would call its own API). */
function consoleOrigins(env: Env): string[] {
  return [new URL(env.PUBLIC_URL).origin, ...['localhost', '127.0.0.1', '[::1]'].map((host) => `http://${host}:${env.PORT}`)];
}

/**
 * Alerts (issue 66): the routes, and a round every ALERT_TICK_MS on one console at a time (a
 * PeriodicTask) that evaluates the rules, then sends the deliveries that are due.
 */
export function alertsModule(
  app: FastifyInstance,
  o: { database: Database; env: Env; box: SecretBox; mail: Mailer | undefined; audit: AuditTrail; policy: OrganizationPolicy; live: Pick<LiveChanges, 'alerts'> },
): { register(api: FastifyInstance): Promise<void> } {
  const { database, env, live } = o;
  const repo = new AlertsRepository(database.db);
  const sender = new AlertSender({
    repo,
    box: o.box,
    audit: o.audit,
    mail: o.mail,
    consoleUrl: env.PUBLIC_URL,
    retrySeconds: env.ALERT_RETRY_SECONDS,
    allowPrivate: env.ALERT_WEBHOOK_PRIVATE_TARGETS,
    switchedOff: tellOwnersWebhookOff(database.db, repo, live),
  });
  const evaluator = new AlertEvaluator({ db: database.db, repo, heard: (users) => live.alerts(users) });
  const round = new PeriodicTask({
    name: 'alerts',
    everyMs: env.ALERT_TICK_MS,
    locks: database.locks,
    work: async () => {
      await evaluator.tick();
      await sender.tick();
    },
    log: app.log,
  });
  app.addHook('onReady', async () => void round.start());
  app.addHook('onClose', () => round.stop());
  const service = new AlertsService({
    db: database.db,
    repo,
    policy: o.policy,
    audit: o.audit,
    box: o.box,
    sender,
    allowPrivate: env.ALERT_WEBHOOK_PRIVATE_TARGETS,
    consoleOrigins: consoleOrigins(env),
    canMail: !!o.mail,
    heard: (users) => live.alerts(users),
  });
  return { register: async (api) => void (await api.register(alertRoutes, { service })) };
}
