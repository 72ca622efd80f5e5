import {
  jobFormSchema,
  jobIdParamsSchema,
  jobListSchema,
  jobPreviewSchema,
  jobResultOutputSchema,
  jobResultParamsSchema,
  jobResultsPageSchema,
  jobResultsQuerySchema,
  jobRunParamsSchema,
  jobSchema,
  RealmRole,
} from '@fleetlink/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendCsv } from '../../lib/csv.js';
import type { JobsService } from './jobs.service.js';

const tags = ['jobs'];
const admin = { roles: [RealmRole.Admin] };

/** Fleet jobs (issue 64): realm ADMIN, as the Command tab; each job is its creator's. */
export const jobsRoutes: FastifyPluginAsyncZod<{ service: JobsService }> = async (app, { service }) => {
  app.get('/jobs', { config: admin, schema: { tags, summary: 'Your jobs, newest first, each with its latest run', response: { 200: jobListSchema } } }, (req) =>
    service.list(req.principal),
  );

  app.post(
    '/jobs/preview',
    { config: admin, schema: { tags, summary: 'Checks a job and counts the devices it reaches now, without creating it', body: jobFormSchema, response: { 200: jobPreviewSchema } } },
    (req) => service.preview(req.principal, req.body),
  );

  app.post(
    '/jobs',
    { config: admin, schema: { tags, summary: 'Creates a job: now, once at a time, or on a cron schedule', body: jobFormSchema, response: { 201: jobSchema } } },
    async (req, reply) => reply.code(201).send(await service.create(req.principal, req.body)),
  );

  app.get('/jobs/:id', { config: admin, schema: { tags, summary: 'A job with its runs and their counts', params: jobIdParamsSchema, response: { 200: jobSchema } } }, (req) =>
    service.get(req.principal, req.params.id),
  );

  app.post(
    '/jobs/:id/cancel',
    { config: admin, schema: { tags, summary: 'Stops a job: no further run, devices not yet sent to are cancelled', params: jobIdParamsSchema, response: { 200: jobSchema } } },
    (req) => service.cancel(req.principal, req.params.id),
  );

  app.post(
    '/jobs/:id/runs/:runId/rerun-failed',
    { config: admin, schema: { tags, summary: 'A new job, now, of the devices that failed in this run', params: jobRunParamsSchema, response: { 201: jobSchema } } },
    async (req, reply) => reply.code(201).send(await service.rerunFailed(req.principal, req.params.id, req.params.runId)),
  );

  app.get(
    '/jobs/:id/runs/:runId/results',
    {
      config: admin,
      schema: { tags, summary: "A page of a run's results in device name order", params: jobRunParamsSchema, querystring: jobResultsQuerySchema, response: { 200: jobResultsPageSchema } },
    },
    (req) => service.results(req.principal, req.params.id, req.params.runId, req.query),
  );

  app.get(
    '/jobs/:id/runs/:runId/results/:deviceId',
    { config: admin, schema: { tags, summary: "One device's result with its output", params: jobResultParamsSchema, response: { 200: jobResultOutputSchema } } },
    (req) => service.result(req.principal, req.params.id, req.params.runId, req.params.deviceId),
  );

  app.get(
    '/jobs/:id/runs/:runId/export',
    { config: admin, schema: { tags, summary: "A run's results as CSV", params: jobRunParamsSchema, response: { 200: z.string().describe('text/csv (RFC 4180), streamed') } } },
    async (req, reply) => sendCsv(reply, await service.exportCsv(req.principal, req.params.id, req.params.runId)),
  );
};
