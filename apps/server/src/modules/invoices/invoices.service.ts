import { randomUUID } from 'node:crypto';
import { AuditKind, ErrorCode, formatInvoiceNumbers, INVOICE_URL_TTL_MS, invoicePdfUrl, type Invoice, type InvoiceRun } from '@fleetlink/contract';
import type { Principal } from '../../auth/principal.js';
import type { InvoiceParty } from '../../db/schema/index.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { newLinkToken } from '../../lib/link-token.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { sha256 } from '../enrollment/credentials.js';
import type { OrganizationPolicy } from '../organizations/organization.policy.js';
import { billedDays, daysInMonth, lineAmountCents, monthEnd, monthKey, monthStart, previousMonth, totalsOf, type Month } from './invoice-arithmetic.js';
import { renderInvoicePdf } from './invoice-pdf.js';
import type { BillableSpan, InvoicesRepository } from './invoices.repository.js';
import { vatTreatment } from './vat.js';

/** Who sells, at what price and VAT rate (from the environment, README 'Invoices'). */
export interface Seller {
  party: InvoiceParty & { country: string };
  vatRateBp: number;
  unitPriceCents: number;
}

const LINK_GONE = 'This invoice link was used already or has expired: open the invoice again from the Invoices tab.';

const toInvoice = (r: { id: string; number: string; date: string; period: string; totalCents: number }): Invoice => ({
  id: r.id,
  number: r.number,
  date: r.date,
  period: r.period,
  total: r.totalCents / 100,
  totalCents: r.totalCents,
  currency: 'EUR',
});

/** Spans grouped by organization, then by device, in the order the repository gave them. */
function byOrganizationAndDevice(spans: BillableSpan[]) {
  const orgs = new Map<string, { organization: BillableSpan['organization']; devices: Map<string, BillableSpan[]> }>();
  for (const s of spans) {
    const org = orgs.get(s.organizationId) ?? { organization: s.organization, devices: new Map() };
    orgs.set(s.organizationId, org);
    org.devices.set(s.deviceId, [...(org.devices.get(s.deviceId) ?? []), s]);
  }
  return orgs;
}

/**
 * Invoicing (SPEC §2 Invoices tab and /operator 'Create invoices'): a run bills the previous calendar
 * month, one invoice per organization that had devices in it, priced per device-month and prorated
 * by days; members read their organization's invoices and get each as a PDF by a one-time link.
 */
export class InvoicesService {
  constructor(
    private readonly repo: InvoicesRepository,
    private readonly policy: OrganizationPolicy,
    private readonly audit: AuditTrail,
    private readonly seller: Seller,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Invoices the month before today; a second run for the same month makes nothing new. */
  run(p: Principal): Promise<InvoiceRun> {
    const now = this.clock();
    const month = previousMonth(now);
    return this.audit.track(
      p,
      { kind: AuditKind.InvoiceRun, details: { period: monthKey(month) } },
      () => this.repo.runExclusively((repo) => this.invoiceMonth(repo, month, now)),
      // Numbers of one run follow each other (it holds the lock): the range says them all, at any size.
      (run) => ({ details: { period: run.period, created: run.created.length, numbers: formatInvoiceNumbers(run.created) || null, alreadyInvoiced: run.alreadyInvoiced } }),
    );
  }

  private async invoiceMonth(repo: InvoicesRepository, month: Month, now: Date): Promise<InvoiceRun> {
    const period = monthKey(month);
    const monthDays = daysInMonth(month);
    const [spans, invoiced] = await Promise.all([repo.spansBetween(monthStart(month), monthEnd(month)), repo.invoicedOrganizations(period)]);
    const run: InvoiceRun = { period, created: [], alreadyInvoiced: 0 };
    for (const [organizationId, { organization, devices }] of byOrganizationAndDevice(spans)) {
      if (invoiced.has(organizationId)) {
        run.alreadyInvoiced++;
        continue;
      }
      const lines = [...devices.values()]
        .map((deviceSpans) => {
          const days = billedDays(deviceSpans.map((s) => ({ start: s.startedAt, end: s.endedAt })), month);
          // The name it had last in this organization.
          const { deviceId, deviceName } = deviceSpans[deviceSpans.length - 1];
          return { deviceId, deviceName, days, amountCents: lineAmountCents(this.seller.unitPriceCents, days, monthDays) };
        })
        .filter((l) => l.days > 0);
      if (!lines.length) continue;
      const vat = vatTreatment(this.seller.vatRateBp, this.seller.party.country, organization);
      const created = await repo.insert(now.getUTCFullYear(), {
        organizationId,
        period,
        invoiceDate: now.toISOString().slice(0, 10),
        seller: this.seller.party,
        buyer: { name: organization.name, address: organization.address, country: organization.country, vat: organization.vat, email: organization.email },
        lines,
        unitPriceCents: this.seller.unitPriceCents,
        daysInPeriod: monthDays,
        vatRateBp: vat.rateBp,
        reverseCharge: vat.reverseCharge,
        ...totalsOf(
          lines.map((l) => l.amountCents),
          vat.rateBp,
        ),
      });
      run.created.push(created.number);
    }
    return run;
  }

  /** An organization's invoices, for its detail; the caller has checked membership. */
  async listFor(organizationId: string): Promise<Invoice[]> {
    return (await this.repo.listFor(organizationId)).map(toInvoice);
  }

  /** A one-time relative link to an invoice's PDF, for a member of its organization (others: 404). */
  async requestPdf(p: Principal, organizationId: string, invoiceId: string): Promise<string> {
    await this.policy.readOrganization(p, organizationId);
    if (!(await this.repo.exists(organizationId, invoiceId))) throw notFound('Invoice not found.');
    const id = randomUUID();
    const { token, hash } = newLinkToken();
    await this.repo.createLink({ id, tokenHash: hash, invoiceId, expiresAt: new Date(Date.now() + INVOICE_URL_TTL_MS) });
    return invoicePdfUrl(id, token);
  }

  /** The PDF a link opens, once; a used, expired or wrong link is 410. */
  async pdfByLink(linkId: string, token: string): Promise<{ number: string; pdf: Buffer }> {
    const invoice = await this.repo.claimLink(linkId, sha256(token));
    if (!invoice) throw new AppError(410, ErrorCode.NotFound, LINK_GONE);
    return { number: invoice.number, pdf: await renderInvoicePdf(invoice) };
  }
}
