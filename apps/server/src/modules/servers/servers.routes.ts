import {
  deviceIdParamsSchema,
  deviceServersSchema,
  serverFormSchema,
  serverMigrateParamsSchema,
  serverParamsSchema,
  serverSchema,
  serverUpdateFormSchema,
  serversReloadResultSchema,
  consoleInstanceSchema,
  RealmRole,
} from '@fleetlink/contract';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ServersService } from './servers.service.js';

const admin = { roles: [RealmRole.Admin] };

/**
 * Servers administration (SPEC §7 Servers), realm ADMIN only. Passwords are written here and never
 * answered, not even to ADMIN: a server answer says whether one is set.
 */
export const serversRoutes: FastifyPluginAsyncZod<{ service: ServersService }> = async (app, { service }) => {
  const tags = ['servers'];
  app.get('/servers', { config: admin, schema: { tags, summary: 'The message and proxy servers with their load', response: { 200: z.array(serverSchema) } } }, () => service.list());

  app.get('/server/:id', { config: admin, schema: { tags, summary: 'A server', params: serverParamsSchema, response: { 200: serverSchema } } }, (req) =>
    service.get(req.params.id),
  );

  app.post('/server', { config: admin, schema: { tags, summary: 'Add a message or proxy server', body: serverFormSchema, response: { 201: serverSchema } } }, async (req, reply) =>
    reply.code(201).send(await service.create(req.principal, req.body)),
  );

  app.put('/server/:id', { config: admin, schema: { tags, summary: 'Change a server (its type only while it has no devices)', params: serverParamsSchema, body: serverUpdateFormSchema, response: { 200: serverSchema } } }, (req) =>
    service.update(req.principal, req.params.id, req.body),
  );

  app.delete('/server/:id', { config: admin, schema: { tags, summary: 'Remove a server without devices', params: serverParamsSchema } }, async (req, reply) => {
    await service.delete(req.principal, req.params.id);
    return reply.code(204).send();
  });

  app.get('/servers-reload', { config: admin, schema: { tags, summary: 'Reconnect the console to every message server', response: { 200: serversReloadResultSchema } } }, async (req) => ({
    connections: await service.reload(req.principal),
  }));

  app.get('/servers-console', { config: admin, schema: { tags, summary: 'This console among several: its id and the device messages it handled', response: { 200: consoleInstanceSchema } } }, () =>
    service.consoleInstance(),
  );

  app.post(
    '/server-migrate/:deviceId/:fromServerId/:toServerId',
    { config: admin, schema: { tags, summary: 'Move a device to another server of the same type', params: serverMigrateParamsSchema, response: { 200: deviceServersSchema } } },
    (req) => service.migrate(req.principal, req.params.deviceId, req.params.fromServerId, req.params.toServerId),
  );

  // The device Servers tab (realm ADMIN): the device's assigned servers with their load.
  app.get('/device/:id/servers', { config: admin, schema: { tags, summary: 'The servers a device is assigned to, with their load', params: deviceIdParamsSchema, response: { 200: deviceServersSchema } } }, (req) =>
    service.serversOf(req.params.id),
  );
};
