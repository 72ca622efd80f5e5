import { commandAnswerSchema, commandFormSchema, deviceIdParamsSchema, RealmRole } from '@fleetlink/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CommandsService } from './commands.service.js';

/**
 * POST /api/device/{id}/command (SPEC §7): any USER may call it; which commands they may run is
 * decided by the service (command-access.ts), after which the caller waits for the device's answer.
 */
export const commandsRoutes: FastifyPluginAsyncZod<{ service: CommandsService }> = async (app, { service }) => {
  app.post(
    '/device/:id/command',
    {
      config: { roles: [RealmRole.User] },
      schema: {
        tags: ['devices'],
        summary: 'Run a command on the device and answer what it printed (for `file`, the folder listing)',
        params: deviceIdParamsSchema,
        body: commandFormSchema,
        response: { 200: commandAnswerSchema },
      },
    },
    (req) => service.run(req.principal, req.params.id, req.body),
  );
};
