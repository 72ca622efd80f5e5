import { Readable } from 'node:stream';
import { auditFilterSchema, auditPageSchema, auditQuerySchema, organizationParamsSchema, RealmRole } from '@fleetlink/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditService } from './audit.service.js';

const tags = ['audit'];
const admin = { roles: [RealmRole.Admin] };
const user = { roles: [RealmRole.User] };
const csvAnswer = { 200: z.string().describe('text/csv (RFC 4180), streamed') };

/** Streams the CSV as it is read; the file name says which day it was taken. */
function sendCsv(reply: FastifyReply, lines: AsyncIterable<string>, name: string) {
  const day = new Date().toISOString().slice(0, 10);
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}-${day}.csv"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(lines));
}

/** The audit trail: realm ADMIN reads all of it, an organization's managers read theirs. */
export const auditRoutes: FastifyPluginAsyncZod<{ service: AuditService }> = async (app, { service }) => {
  app.get(
    '/audit',
    { config: admin, schema: { tags, summary: 'The audit trail, newest first, one page', querystring: auditQuerySchema, response: { 200: auditPageSchema } } },
    (req) => service.operatorPage(req.query),
  );

  app.get(
    '/audit/export',
    { config: admin, schema: { tags, summary: 'The filtered audit trail as CSV', querystring: auditFilterSchema, response: csvAnswer } },
    async (req, reply) => sendCsv(reply, service.operatorExport(req.query), 'fleetlink-audit'),
  );

  app.get(
    '/organization/:id/audit',
    {
      config: user,
      schema: { tags, summary: 'An organization’s activity, newest first, one page', params: organizationParamsSchema, querystring: auditQuerySchema, response: { 200: auditPageSchema } },
    },
    (req) => service.organizationPage(req.principal, req.params.id, req.query),
  );

  app.get(
    '/organization/:id/audit/export',
    { config: user, schema: { tags, summary: 'An organization’s filtered activity as CSV', params: organizationParamsSchema, querystring: auditFilterSchema, response: csvAnswer } },
    async (req, reply) => sendCsv(reply, await service.organizationExport(req.principal, req.params.id, req.query), 'fleetlink-activity'),
  );
};
