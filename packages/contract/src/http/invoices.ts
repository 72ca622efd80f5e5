import { z } from 'zod';
import { LINK_GONE_ERRORS } from './route-errors.js';

/** SPEC §3 Invoice, as an organization's members see it. */
export const invoiceSchema = z.object({
  id: z.string(),
  /** Gapless per year: `2026-0001`. */
  number: z.string(),
  /** The invoice date (the day of the run that made it), `YYYY-MM-DD`. */
  date: z.iso.date(),
  /** The month it bills, `YYYY-MM`. */
  period: z.string(),
  /** In EUR (SPEC §9: shown with 2 decimals); exactly `totalCents` / 100. */
  total: z.number(),
  totalCents: z.number().int(),
  currency: z.literal('EUR'),
});
export type Invoice = z.infer<typeof invoiceSchema>;

/** GET /api/invoice/create: what a run made. */
export const invoiceRunSchema = z.object({
  /** The month invoiced, `YYYY-MM`: the calendar month before the run. */
  period: z.string(),
  /** Numbers of the invoices this run made, in order. */
  created: z.array(z.string()),
  /** Organizations of that month invoiced by an earlier run, left as they were. */
  alreadyInvoiced: z.number().int(),
});
export type InvoiceRun = z.infer<typeof invoiceRunSchema>;

export const invoiceParamsSchema = z.object({
  organizationId: z.uuid('The organization id is not valid.'),
  invoiceId: z.uuid('The invoice id is not valid.'),
});
export const invoiceFormats = ['pdf'] as const;
export const invoiceFormatQuerySchema = z.object({
  format: z.enum(invoiceFormats, 'The invoice format must be pdf.').default('pdf'),
});

/** The PDF link the console answers is relative, one-time, and valid this long. */
export const INVOICE_URL_TTL_MS = 60_000;
export const INVOICE_PDF_URL_PREFIX = '/api/invoice-pdf/';
export const invoicePdfParamsSchema = z.object({ linkId: z.uuid('Not an invoice link.') });
export const invoicePdfUrl = (linkId: string, token: string) => `${INVOICE_PDF_URL_PREFIX}${linkId}?token=${encodeURIComponent(token)}`;

/** Printed on an invoice to an EU business in another member state, instead of VAT. */
export const REVERSE_CHARGE_MENTION = 'VAT reverse charge — Article 196, Council Directive 2006/112/EC';

/** SPEC §7 invoices, served under /api (an organization's list is in its detail, SPEC §3). */
export const invoiceRoutes = {
  request: { method: 'GET', path: '/request-invoice/:organizationId/:invoiceId', role: 'USER' },
  pdf: { method: 'GET', path: '/invoice-pdf/:linkId', role: null, oneTimeLink: true, errors: LINK_GONE_ERRORS },
  create: { method: 'GET', path: '/invoice/create', role: 'ADMIN' },
} as const;
