import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { contactChallengeSchema, contactFormSchema, contactMessageListSchema, contactSentSchema, ErrorCode, RealmRole } from '@fleetlink/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.js';
import type { ContactService } from './contact.service.js';

export interface ContactRateLimits {
  /** Messages one account may send per hour. */
  perUser: number;
  /** Messages one client address may send per hour, whichever accounts it signs in with. */
  perAddress: number;
  /** Where the counts are kept: the database, shared by every console. */
  store: FastifyRateLimitStoreCtor;
}

const tags = ['contact'];
const HOUR_MS = 3600_000;
const inMinutes = (ms: number) => {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
};

/** SPEC §7 contact. Sending needs a sign-in only (SPEC §6: no realm role); the list is for realm ADMIN. */
export const contactRoutes: FastifyPluginAsyncZod<{ service: ContactService; limits: ContactRateLimits }> = async (app, { service, limits }) => {
  await app.register(rateLimit, { global: false, store: limits.store });
  // Two counters, each with its own words: an account that writes too often, and an address that
  // does (several accounts from one place). They run after sign-in and validation, so a form with a
  // mistake costs nothing. (The plugin runs one route limiter per request, hence its manual form.)
  const limiters = [
    {
      check: app.createRateLimit({ max: limits.perUser, timeWindow: HOUR_MS, keyGenerator: (req) => `user:${req.principal.subject}` }),
      message: (max: number, ttl: number) => `You have sent ${max} messages in the last hour: try again in ${inMinutes(ttl)}.`,
    },
    {
      check: app.createRateLimit({ max: limits.perAddress, timeWindow: HOUR_MS, keyGenerator: (req) => `address:${req.ip}` }),
      message: (_max: number, ttl: number) => `Too many messages were sent from your network address: try again in ${inMinutes(ttl)}.`,
    },
  ];
  const withinLimits = async (req: FastifyRequest, reply: FastifyReply) => {
    for (const { check, message } of limiters) {
      const limit = await check(req);
      if (!limit.isAllowed && limit.isExceeded) {
        reply.header('retry-after', limit.ttlInSeconds);
        throw new AppError(429, ErrorCode.RateLimited, message(limit.max, limit.ttl));
      }
    }
  };

  // SPEC §2: contact needs a sign-in only, so a guest without a realm role can write.
  const signedIn = { roles: [] };

  app.get(
    '/contact/challenge',
    { config: signedIn, schema: { tags, summary: 'A CAPTCHA challenge (ALTCHA proof of work) for the contact form', response: { 200: contactChallengeSchema } } },
    async (_req, reply) => reply.header('cache-control', 'no-store').send(await service.challenge()),
  );

  app.post(
    '/contact',
    {
      config: signedIn,
      preHandler: withinLimits,
      schema: {
        tags,
        summary: 'Sends a message to the operator, with a solved CAPTCHA; rate-limited per account and per address',
        body: contactFormSchema,
        response: { 201: contactSentSchema },
      },
    },
    async (req, reply) => reply.code(201).send(await service.send(req.principal, req.body)),
  );

  app.get(
    '/contact/messages',
    {
      config: { roles: [RealmRole.Admin] },
      schema: { tags, summary: 'The newest contact messages first (realm ADMIN)', response: { 200: contactMessageListSchema } },
    },
    () => service.newest(),
  );
};
