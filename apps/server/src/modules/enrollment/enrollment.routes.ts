import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { agentEnrollRequestSchema, agentEnrollResponseSchema, deviceIdParamsSchema, ErrorCode, installationKeyResetSchema, RealmRole } from '@fleetlink/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { EnrollmentService } from './enrollment.service.js';

/**
 * POST /api/agent/enroll: public (the agent has no user token), authenticated by device id and
 * installation key (or, once enrolled, its own MQTT password), and rate-limited per address so
 * keys cannot be guessed. POST /api/device/{id}/installation-key: a manager resets the key.
 */
export const enrollmentRoutes: FastifyPluginAsyncZod<{ service: EnrollmentService; perMinute: number; store: FastifyRateLimitStoreCtor }> = async (
  app,
  { service, perMinute, store },
) => {
  await app.register(rateLimit, {
    global: false,
    store,
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      code: ErrorCode.RateLimited,
      message: `Too many enrollment attempts: try again in ${Math.ceil(ctx.ttl / 1000)} seconds.`,
    }),
  });
  app.post(
    '/agent/enroll',
    {
      config: { public: true, rateLimit: { max: perMinute, timeWindow: '1 minute' } },
      schema: { tags: ['agent'], summary: 'An agent enrolls with its installation key and gets its device account and message server', security: [], body: agentEnrollRequestSchema, response: { 200: agentEnrollResponseSchema } },
    },
    (req) => service.enroll(req.body, req.ip),
  );

  app.post(
    '/device/:id/installation-key',
    {
      config: { roles: [RealmRole.User] },
      schema: {
        tags: ['devices'],
        summary: 'Reset the installation key: the old key and the agent’s account stop working, and its agent is disconnected',
        params: deviceIdParamsSchema,
        response: { 200: installationKeyResetSchema },
      },
    },
    async (req) => ({ installationId: await service.resetKey(req.principal, req.params.id) }),
  );
};
