import {
  auditExportParamsSchema,
  auditFilterSchema,
  auditPageSchema,
  auditQuerySchema,
  linkTokenQuerySchema,
  organizationParamsSchema,
  RealmRole,
} from '@fleetlink/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendCsv } from '../../lib/csv.js';
import type { AuditService } from './audit.service.js';

const tags = ['audit'];
const admin = { roles: [RealmRole.Admin] };
const user = { roles: [RealmRole.User] };
/** Authorized by the link's one-time token, not by a bearer token. */
const open = { public: true };
const csvAnswer = { 200: z.string().describe('text/csv (RFC 4180), streamed') };
const linkAnswer = { 201: z.string().describe(`A relative URL that downloads the CSV once, within a minute`) };

const sendLink = (reply: FastifyReply, url: string) => reply.code(201).type('text/plain; charset=utf-8').send(url);

/**
 * The audit trail: realm ADMIN reads all of it, an organization's managers read theirs. The CSV
 * comes straight to an API client with its token (`…/export`), or to a browser by a one-time link
 * (`…/export-link`, then `/audit-export/{id}?token=`), which it saves as the file streams.
 */
export const auditRoutes: FastifyPluginAsyncZod<{ service: AuditService }> = async (app, { service }) => {
  app.get(
    '/audit',
    { config: admin, schema: { tags, summary: 'The audit trail, newest first, one page', querystring: auditQuerySchema, response: { 200: auditPageSchema } } },
    (req) => service.operatorPage(req.query),
  );

  app.get(
    '/audit/export',
    { config: admin, schema: { tags, summary: 'The filtered audit trail as CSV', querystring: auditFilterSchema, response: csvAnswer } },
    async (req, reply) => sendCsv(reply, await service.exportCsv(req.principal, {}, req.query)),
  );

  app.post(
    '/audit/export-link',
    { config: admin, schema: { tags, summary: 'A one-time link to the filtered audit trail as CSV', querystring: auditFilterSchema, response: linkAnswer } },
    async (req, reply) => sendLink(reply, await service.exportLink(req.principal, {}, req.query)),
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
    async (req, reply) => sendCsv(reply, await service.exportCsv(req.principal, { organizationId: req.params.id }, req.query)),
  );

  app.post(
    '/organization/:id/audit/export-link',
    {
      config: user,
      schema: { tags, summary: 'A one-time link to an organization’s filtered activity as CSV', params: organizationParamsSchema, querystring: auditFilterSchema, response: linkAnswer },
    },
    async (req, reply) => sendLink(reply, await service.exportLink(req.principal, { organizationId: req.params.id }, req.query)),
  );

  app.get(
    '/audit-export/:exportId',
    { config: open, schema: { tags, summary: 'Downloads an export by its one-time link', params: auditExportParamsSchema, querystring: linkTokenQuerySchema, security: [], response: csvAnswer } },
    async (req, reply) => sendCsv(reply, await service.exportByLink(req.params.exportId, req.query.token)),
  );
};
