import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { apiErrorSchema, apiOperations } from '@fleetlink/contract';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { completeDocument } from './openapi-document.js';

/** A route a person calls: with a sign-in's access token, or with one of their API tokens. */
const BEARER_SECURITY: Record<string, string[]>[] = [{ bearer: [] }, { apiToken: [] }];

/**
 * The API's OpenAPI document at /api/docs/json, and Swagger UI at /api/docs. Only /api is in it:
 * the provider's routes (/idp), the SPA and its files are not part of the API.
 */
export async function registerOpenApi(app: FastifyInstance, opts: { publicUrl: string }) {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Fleetlink API',
        version: '0.1.0',
        description: 'The console’s API. Every error answers `{ code, message }` JSON, with `fields` for a form’s field messages.',
      },
      servers: [{ url: opts.publicUrl, description: 'This console' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token of the identity provider the console signs in with.' },
          // Issue 62: scripts call the API as a person with a token made under API tokens in their profile.
          apiToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'flt_…',
            description:
              'A personal API token (`flt_` and 43 characters), made under API tokens in the profile: it acts as its owner, narrowed to its scope (read only: GET and HEAD) and organizations, at most API_TOKEN_RATE_LIMIT requests a minute.',
          },
          // The proxy API (/api/proxy/…): a PROXY server's id and password.
          proxyBasic: { type: 'http', scheme: 'basic' },
          // Agents' own routes (/api/agent/…): the device id and its MQTT password.
          deviceBasic: { type: 'http', scheme: 'basic' },
        },
        schemas: { ApiError: z.toJSONSchema(apiErrorSchema, { target: 'openapi-3.0' }) as Record<string, unknown> },
      },
      security: BEARER_SECURITY,
    },
    // Each operation names the realm roles it needs (`x-roles`, `[]` for any signed-in user), from
    // the same route config the auth hook enforces; public operations have none. Each spells out its
    // `security`: its own (an agent's or the proxy's credentials), none when public, else a bearer token.
    transform: (input) => {
      if (!input.url.startsWith('/api/')) return { schema: { ...input.schema, hide: true }, url: input.url };
      const out = jsonSchemaTransform(input);
      const config = input.route.config;
      const security = out.schema.security ?? (config?.public ? [] : BEARER_SECURITY);
      const roles = config?.public ? undefined : config?.roles;
      return { ...out, schema: { ...out.schema, security, ...(roles ? { 'x-roles': roles } : {}) } };
    },
    transformObject: (documents) => ('openapiObject' in documents ? completeDocument(documents.openapiObject, apiOperations()) : documents.swaggerObject),
  });
  // The operation ids shown too: they are the names a generated client gives its calls.
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { persistAuthorization: false, displayOperationId: true } });
}
