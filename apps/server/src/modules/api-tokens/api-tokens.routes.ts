import { apiTokenCreatedSchema, apiTokenFormSchema, apiTokenListSchema, apiTokenParamsSchema, RealmRole } from '@fleetlink/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiTokensService } from './api-tokens.service.js';

const tags = ['api-tokens'];
/** Any signed-in person manages their own tokens, a guest too (issue 62: any signed-in user). */
const signedIn = { roles: [] };

/** Personal API tokens (issue 62). Thin: the rules are the service's. */
export const apiTokenRoutes: FastifyPluginAsyncZod<{ service: ApiTokensService }> = async (app, { service }) => {
  app.get(
    '/api-tokens',
    { config: signedIn, schema: { tags, summary: 'My API tokens (never their secrets)', response: { 200: apiTokenListSchema } } },
    (req) => service.mine(req.principal),
  );

  app.post(
    '/api-tokens',
    {
      config: signedIn,
      schema: { tags, summary: 'Create an API token: its secret is in this answer only', body: apiTokenFormSchema, response: { 201: apiTokenCreatedSchema } },
    },
    async (req, reply) => reply.code(201).header('cache-control', 'no-store').send(await service.create(req.principal, req.body)),
  );

  app.delete(
    '/api-tokens/:id',
    { config: signedIn, schema: { tags, summary: 'Revoke an API token (mine; any, for a realm ADMIN)', params: apiTokenParamsSchema } },
    async (req, reply) => {
      await service.revoke(req.principal, req.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/all-api-tokens',
    { config: { roles: [RealmRole.Admin] }, schema: { tags, summary: "Every user's API tokens (realm ADMIN)", response: { 200: apiTokenListSchema } } },
    () => service.all(),
  );
};
