import { ErrorCode, meSchema, publicConfigSchema, readinessSchema, type PublicConfig } from '@fleetlink/contract';
import { AppError } from '../../lib/app-error.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

interface SystemRoutesOptions {
  publicConfig: PublicConfig;
  checkDatabase: () => Promise<void>;
  /** The MESSAGE servers and how many this console is connected to; absent without messaging. */
  messageServers?: () => Promise<{ connected: number; total: number }>;
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
    '/ready',
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary: 'Readiness for a load balancer (issue 67): 200 while the database answers and this console is connected to a message server (or none is registered); 503 saying which is not',
        response: { 200: readinessSchema },
      },
    },
    async () => {
      const notReady = (why: string) => new AppError(503, ErrorCode.Unavailable, `Not ready: ${why}`);
      await opts.checkDatabase().catch(() => {
        throw notReady('the database does not answer.');
      });
      const messageServers = (await opts.messageServers?.()) ?? { connected: 0, total: 0 };
      if (messageServers.total > 0 && messageServers.connected === 0) {
        throw notReady(messageServers.total === 1 ? 'this console is not connected to its message server.' : `this console is connected to none of its ${messageServers.total} message servers.`);
      }
      return { status: 'ready' as const, messageServers };
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
