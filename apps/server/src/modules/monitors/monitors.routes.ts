import { deviceIdParamsSchema, monitorFormSchema, monitorParamsSchema, monitorSchema, RealmRole } from '@fleetlink/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MonitorsService } from './monitors.service.js';

const user = { roles: [RealmRole.User] };
const tags = ['devices'];

/** SPEC §7 Monitors. A device's monitors are listed in its own answer (GET /api/device/{id}). */
export const monitorsRoutes: FastifyPluginAsyncZod<{ service: MonitorsService }> = async (app, { service }) => {
  app.post(
    '/device/:id/monitor',
    { config: user, schema: { tags, summary: 'Add a monitor to the device', params: deviceIdParamsSchema, body: monitorFormSchema, response: { 201: monitorSchema } } },
    async (req, reply) => reply.code(201).send(await service.create(req.principal, req.params.id, req.body)),
  );

  app.get(
    '/device/:id/monitor/:monitorId',
    { config: user, schema: { tags, summary: 'A monitor of the device, with its last reading', params: monitorParamsSchema, response: { 200: monitorSchema } } },
    (req) => service.get(req.principal, req.params.id, req.params.monitorId),
  );

  app.put(
    '/device/:id/monitor/:monitorId',
    { config: user, schema: { tags, summary: 'Change a monitor of the device', params: monitorParamsSchema, body: monitorFormSchema, response: { 200: monitorSchema } } },
    (req) => service.update(req.principal, req.params.id, req.params.monitorId, req.body),
  );

  app.delete(
    '/device/:id/monitor/:monitorId',
    { config: user, schema: { tags, summary: 'Remove a monitor from the device', params: monitorParamsSchema, response: { 204: z.null() } } },
    async (req, reply) => {
      await service.remove(req.principal, req.params.id, req.params.monitorId);
      return reply.code(204).send(null);
    },
  );
};
