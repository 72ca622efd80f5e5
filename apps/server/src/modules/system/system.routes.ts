import { meSchema, publicConfigSchema, type PublicConfig } from '@fleetlink/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

interface SystemRoutesOptions {
  publicConfig: PublicConfig;
  checkDatabase: () => Promise<void>;
}

export const systemRoutes: FastifyPluginAsyncZod<SystemRoutesOptions> = async (app, opts) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: { tags: ['system'], summary: 'Liveness and database check', response: { 200: z.object({ status: z.literal('ok') }) } },
    },
    async () => {
      await opts.checkDatabase();
      return { status: 'ok' as const };
    },
  );

  app.get(
    '/config',
    { config: { public: true }, schema: { tags: ['system'], summary: 'Identity provider settings for the SPA', response: { 200: publicConfigSchema } } },
    async () => opts.publicConfig,
  );

  app.get(
    '/me',
    // Any signed-in user, a guest too: the SPA asks it before it knows what the user may see.
    { config: { roles: [] }, schema: { tags: ['system'], summary: 'The signed-in user as the API sees them', response: { 200: meSchema } } },
    async (req) => req.principal,
  );
};
