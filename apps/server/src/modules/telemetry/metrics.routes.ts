import {
  deviceIdParamsSchema,
  RealmRole,
  metricsQuerySchema,
  metricsResponseSchema,
  timelineHours,
  timelineQuerySchema,
  timelineResponseSchema,
} from '@fleetlink/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { canRead, type OrganizationPolicy } from '../organizations/organization.policy.js';
import { notFound } from '../../lib/app-error.js';
import type { TelemetryRepository } from './telemetry.repository.js';

const user = { roles: [RealmRole.User] };

/** GET /api/device/{id}/metrics and /metrics/TIMELINE (SPEC §7): members of the device's organization. */
export const metricsRoutes: FastifyPluginAsyncZod<{ repo: TelemetryRepository; policy: OrganizationPolicy }> = async (app, { repo, policy }) => {
  app.get(
    '/device/:id/metrics',
    { config: user, schema: { tags: ['metrics'], summary: 'The device’s system load over the last hours', params: deviceIdParamsSchema, querystring: metricsQuerySchema, response: { 200: metricsResponseSchema } } },
    async (req) => {
      // The access check and the samples in one statement (issue 69), by the policy's rule (readDevice).
      const since = new Date(Date.now() - req.query.hours * 3600_000);
      const found = await repo.metricsForMember(req.params.id, req.principal, since);
      if (!found || !canRead(found.role)) throw notFound('Device not found.');
      return found.samples;
    },
  );

  app.get(
    '/device/:id/metrics/TIMELINE',
    { config: user, schema: { tags: ['metrics'], summary: 'The periods the device was online, over a day or a week', params: deviceIdParamsSchema, querystring: timelineQuerySchema, response: { 200: timelineResponseSchema } } },
    async (req) => {
      await policy.readDevice(req.principal, req.params.id);
      const since = new Date(Date.now() - timelineHours[req.query.interval] * 3600_000);
      const rows = await repo.timeline(req.params.id, since);
      // Periods are clipped to the window so the grid never draws before it.
      return rows.map((r) => ({
        start: (r.start < since ? since : r.start).toISOString(),
        end: r.end ? r.end.toISOString() : null,
      }));
    },
  );
};
