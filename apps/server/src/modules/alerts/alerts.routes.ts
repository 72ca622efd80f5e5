import {
  alertInboxSchema,
  alertReadFormSchema,
  alertRuleFormSchema,
  alertRuleListSchema,
  alertRuleParamsSchema,
  alertRuleSavedSchema,
  RealmRole,
  realmAlertRuleParamsSchema,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
} from '@fleetlink/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AlertScope, AlertsService } from './alerts.service.js';

const tags = ['alerts'];
const user: { roles: RealmRole[] } = { roles: [RealmRole.User] };
const admin: { roles: RealmRole[] } = { roles: [RealmRole.Admin] };
const organizationParams = z.object({ id: z.uuid('The organization id is not valid.') });

/**
 * Alert rules (issue 66): an organization's under /organization/{id} (its CREATOR and ADMINs), the
 * realm's under /alert-rules (realm ADMIN); and each person's bell. Thin: the rules are the service's.
 */
export const alertRoutes: FastifyPluginAsyncZod<{ service: AlertsService }> = async (app, { service }) => {
  const routes = (prefix: string, config: typeof user, params: z.ZodType<{ id?: string }>, ruleParams: z.ZodType<{ id?: string; ruleId: string }>, who: string) => {
    const scope = (p: { id?: string }): AlertScope => p.id ?? null;
    app.get(
      prefix,
      { config, schema: { tags, summary: `${who} alert rules`, params, response: { 200: alertRuleListSchema } } },
      (req) => service.list(req.principal, scope(req.params)),
    );
    app.post(
      prefix,
      {
        config,
        schema: { tags, summary: `Create ${who.toLowerCase()} alert rule: its webhook's signing secret is in this answer only`, params, body: alertRuleFormSchema, response: { 201: alertRuleSavedSchema } },
      },
      async (req, reply) => reply.code(201).header('cache-control', 'no-store').send(await service.create(req.principal, scope(req.params), req.body)),
    );
    app.put(
      `${prefix}/:ruleId`,
      {
        config,
        schema: { tags, summary: `Change ${who.toLowerCase()} alert rule: a new webhook URL gets a new secret, in this answer only`, params: ruleParams, body: alertRuleFormSchema, response: { 200: alertRuleSavedSchema } },
      },
      async (req, reply) => reply.header('cache-control', 'no-store').send(await service.update(req.principal, scope(req.params), req.params.ruleId, req.body)),
    );
    app.delete(`${prefix}/:ruleId`, { config, schema: { tags, summary: `Delete ${who.toLowerCase()} alert rule`, params: ruleParams } }, async (req, reply) => {
      await service.remove(req.principal, scope(req.params), req.params.ruleId);
      return reply.code(204).send();
    });
    app.post(
      `${prefix}/:ruleId/test`,
      { config, schema: { tags, summary: `Send ${who.toLowerCase()} rule's webhook a test event now, and say how it went`, params: ruleParams, response: { 200: webhookDeliverySchema } } },
      (req) => service.test(req.principal, scope(req.params), req.params.ruleId),
    );
    app.get(
      `${prefix}/:ruleId/deliveries`,
      { config, schema: { tags, summary: `${who} rule's deliveries (webhook, mail), newest first`, params: ruleParams, response: { 200: webhookDeliveryListSchema } } },
      (req) => service.deliveries(req.principal, scope(req.params), req.params.ruleId),
    );
  };
  routes('/organization/:id/alert-rules', user, organizationParams, alertRuleParamsSchema, "An organization's");
  routes('/alert-rules', admin, z.object({}), realmAlertRuleParamsSchema, "The realm's");

  app.get('/alerts', { config: user, schema: { tags, summary: 'My alerts: the unread count and the newest', response: { 200: alertInboxSchema } } }, (req) => service.inbox(req.principal));
  app.post(
    '/alerts/read',
    { config: user, schema: { tags, summary: 'Mark my alerts read: those listed, or all', body: alertReadFormSchema, response: { 200: alertInboxSchema } } },
    (req) => service.markRead(req.principal, req.body.ids),
  );
};
