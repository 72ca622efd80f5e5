import { randomInt } from 'node:crypto';
import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { agentEnrollRequestSchema, agentEnrollResponseSchema, deviceIdParamsSchema, ErrorCode, installationKeyResetSchema, RealmRole } from '@fleetlink/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.js';
import type { EnrollmentService } from './enrollment.service.js';

export interface EnrollmentRoutesOptions {
  service: EnrollmentService;
  perMinute: number;
  store: FastifyRateLimitStoreCtor;
  /** Enrollments this console works on at once; past it, 429 with a Retry-After (issues 67, 70). */
  concurrency: number;
  /** Told of every enrollment answered with an error (the console's metrics). */
  onRefused?(status: number): void;
}

/**
 * POST /api/agent/enroll: public (the agent has no user token), authenticated by device id and
 * installation key (or, once enrolled, its own MQTT password), and rate-limited per address so
 * keys cannot be guessed. A fleet that comes back together (a console or broker restart) is asked
 * to wait rather than piled up: past `concurrency` enrollments at once, each further one is
 * answered 429 with a Retry-After spread over 5 to 30 s, which agents wait out.
 * POST /api/device/{id}/installation-key: a manager resets the key.
 */
export const enrollmentRoutes: FastifyPluginAsyncZod<EnrollmentRoutesOptions> = async (app, { service, perMinute, store, concurrency, onRefused }) => {
  let working = 0;
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
      // The rate limit's 429 and the schema's 400 too: every refusal counts.
      onResponse: async (_req, reply) => {
        if (reply.statusCode >= 400) onRefused?.(reply.statusCode);
      },
    },
    async (req, reply) => {
      if (working >= concurrency) {
        const seconds = randomInt(5, 31);
        reply.header('retry-after', String(seconds));
        throw new AppError(429, ErrorCode.RateLimited, `The console is enrolling many devices at once: try again in ${seconds} seconds.`);
      }
      working++;
      try {
        return await service.enroll(req.body, req.ip);
      } finally {
        working--;
      }
    },
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
