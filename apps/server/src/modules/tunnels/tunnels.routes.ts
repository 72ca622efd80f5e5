import { deviceIdParamsSchema, RealmRole, tunnelDomainSchema, tunnelFormSchema, tunnelParamsSchema, tunnelSchema, tunnelStatusSchema } from '@fleetlink/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TunnelsService } from './tunnels.service.js';

const user = { roles: [RealmRole.User] };
const tags = ['devices'];

/** SPEC §7 tunnels: members read, CREATOR and ADMIN of the organization change, connect and disconnect. */
export const tunnelsRoutes: FastifyPluginAsyncZod<{ service: TunnelsService }> = async (app, { service }) => {
  app.post(
    '/device/:id/tunnel',
    { config: user, schema: { tags, summary: 'Register a tunnel to a port of the device', params: deviceIdParamsSchema, body: tunnelFormSchema, response: { 201: tunnelSchema } } },
    async (req, reply) => reply.code(201).send(await service.create(req.principal, req.params.id, req.body)),
  );
  app.get(
    '/device/:id/tunnel',
    { config: user, schema: { tags, summary: 'The device’s tunnels with their status', params: deviceIdParamsSchema, response: { 200: z.array(tunnelSchema) } } },
    (req) => service.list(req.principal, req.params.id),
  );
  app.get(
    '/device/:id/tunnel-domains',
    { config: user, schema: { tags, summary: 'The domains a tunnel of the device can use', params: deviceIdParamsSchema, response: { 200: z.array(tunnelDomainSchema) } } },
    (req) => service.domains(req.principal, req.params.id),
  );
  app.get(
    '/device/:id/tunnel/:tunnelId',
    { config: user, schema: { tags, summary: 'A tunnel of the device with its status', params: tunnelParamsSchema, response: { 200: tunnelSchema } } },
    (req) => service.get(req.principal, req.params.id, req.params.tunnelId),
  );
  app.put(
    '/device/:id/tunnel/:tunnelId',
    { config: user, schema: { tags, summary: 'Change a disconnected tunnel', params: tunnelParamsSchema, body: tunnelFormSchema, response: { 200: tunnelSchema } } },
    (req) => service.update(req.principal, req.params.id, req.params.tunnelId, req.body),
  );
  app.delete(
    '/device/:id/tunnel/:tunnelId',
    { config: user, schema: { tags, summary: 'Remove a disconnected tunnel', params: tunnelParamsSchema, response: { 204: z.null() } } },
    async (req, reply) => {
      await service.remove(req.principal, req.params.id, req.params.tunnelId);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/device/:id/tunnel/:tunnelId/start',
    { config: user, schema: { tags, summary: 'Connect the tunnel through the device’s proxy', params: tunnelParamsSchema, response: { 200: tunnelStatusSchema } } },
    (req) => service.start(req.principal, req.params.id, req.params.tunnelId),
  );
  app.post(
    '/device/:id/tunnel/:tunnelId/stop',
    { config: user, schema: { tags, summary: 'Disconnect the tunnel', params: tunnelParamsSchema, response: { 200: tunnelStatusSchema } } },
    (req) => service.stop(req.principal, req.params.id, req.params.tunnelId),
  );
};
