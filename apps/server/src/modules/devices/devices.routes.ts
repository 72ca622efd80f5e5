import {
  deviceFormSchema,
  deviceIdParamsSchema,
  deviceOrganizationOptionsSchema,
  deviceReindexResultSchema,
  deviceSchema,
  deviceSearchQuerySchema,
  deviceSearchResultSchema,
  deviceStatusListSchema,
  deviceStatusQuerySchema,
  deviceTagsSchema,
  RealmRole,
} from '@fleetlink/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DevicesService } from './devices.service.js';

const user = { roles: [RealmRole.User] };
const tags = ['devices'];

/** SPEC §7 Devices: thin handlers; the service holds the rules, the policy decides access. */
export const devicesRoutes: FastifyPluginAsyncZod<{ service: DevicesService }> = async (app, { service }) => {
  app.get(
    '/devices',
    { config: user, schema: { tags, summary: 'Search the caller’s devices', querystring: deviceSearchQuerySchema, response: { 200: deviceSearchResultSchema } } },
    (req) => service.search(req.principal, req.query),
  );

  app.get(
    '/devices-status',
    { config: user, schema: { tags, summary: 'The status now of some of the caller’s devices', querystring: deviceStatusQuerySchema, response: { 200: deviceStatusListSchema } } },
    (req) => service.statuses(req.principal, req.query),
  );

  app.post(
    '/device',
    { config: user, schema: { tags, summary: 'Register a device', body: deviceFormSchema, response: { 201: deviceSchema } } },
    async (req, reply) => reply.code(201).send(await service.create(req.principal, req.body)),
  );

  app.get(
    '/device/:id',
    { config: user, schema: { tags, summary: 'A device', params: deviceIdParamsSchema, response: { 200: deviceSchema } } },
    (req) => service.get(req.principal, req.params.id),
  );

  app.put(
    '/device/:id',
    { config: user, schema: { tags, summary: 'Update a device', params: deviceIdParamsSchema, body: deviceFormSchema, response: { 200: deviceSchema } } },
    (req) => service.update(req.principal, req.params.id, req.body),
  );

  app.delete(
    '/device/:id',
    { config: user, schema: { tags, summary: 'Delete a device', params: deviceIdParamsSchema, response: { 204: z.null() } } },
    async (req, reply) => {
      await service.remove(req.principal, req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/tags',
    { config: user, schema: { tags, summary: 'Tags of the caller’s devices, for suggestions', response: { 200: deviceTagsSchema } } },
    (req) => service.tags(req.principal),
  );

  app.get(
    '/device-organizations',
    { config: user, schema: { tags, summary: 'Organizations where the caller may create devices', response: { 200: deviceOrganizationOptionsSchema } } },
    (req) => service.creatableOrganizations(req.principal),
  );

  app.get(
    '/devices-search-reindex',
    { config: { roles: [RealmRole.Admin] }, schema: { tags, summary: 'Rebuild the device search index', response: { 200: deviceReindexResultSchema } } },
    async (req) => ({ indexed: await service.reindex(req.principal) }),
  );
};
