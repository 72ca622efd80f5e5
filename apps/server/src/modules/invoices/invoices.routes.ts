import {
  invoiceFormatQuerySchema,
  invoiceParamsSchema,
  invoicePdfParamsSchema,
  invoiceRunSchema,
  linkTokenQuerySchema,
  RealmRole,
} from '@fleetlink/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { InvoicesService } from './invoices.service.js';

const tags = ['invoices'];

/** SPEC §7 invoices. Thin: the contract validates, the service holds the rules. */
export const invoicesRoutes: FastifyPluginAsyncZod<{ service: InvoicesService }> = async (app, { service }) => {
  app.get(
    '/invoice/create',
    {
      config: { roles: [RealmRole.Admin] },
      schema: { tags, summary: 'Invoices the previous calendar month (realm ADMIN); a second run makes nothing new', response: { 200: invoiceRunSchema } },
    },
    (req) => service.run(req.principal),
  );

  app.get(
    '/request-invoice/:organizationId/:invoiceId',
    {
      config: { roles: [RealmRole.User] },
      schema: {
        tags,
        summary: 'A one-time link to an invoice as PDF, for a member of its organization',
        params: invoiceParamsSchema,
        querystring: invoiceFormatQuerySchema,
        response: { 200: z.string().describe('A relative URL that downloads the PDF once, within a minute') },
      },
    },
    async (req, reply) =>
      reply.type('text/plain; charset=utf-8').send(await service.requestPdf(req.principal, req.params.organizationId, req.params.invoiceId)),
  );

  app.get(
    '/invoice-pdf/:linkId',
    {
      // Authorized by the link's one-time token: the browser navigates to it without a bearer token.
      config: { public: true },
      schema: {
        tags,
        summary: 'Downloads an invoice PDF by its one-time link',
        params: invoicePdfParamsSchema,
        querystring: linkTokenQuerySchema,
        security: [],
        response: { 200: z.any().describe('application/pdf') },
      },
    },
    async (req, reply) => {
      const { number, pdf } = await service.pdfByLink(req.params.linkId, req.query.token);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="invoice-${number}.pdf"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );
};
