import { formatEuroCents, REVERSE_CHARGE_MENTION, type Invoice, type InvoiceRun } from '@fleetlink/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceLifetimes, devices } from '../../db/schema/index.js';
import { startTestConsole, type TestConsole } from '../../testing/test-console.js';
import { daysInMonth, lineAmountCents, monthKey, previousMonth, type Month } from './invoice-arithmetic.js';
import { pdfText } from './pdf-text.test-support.js';

const ADMIN = 'admin@fleetlink.local';
const USER = 'user@fleetlink.local';

const seller = {
  INVOICE_PRICE_PER_DEVICE_MONTH: '10',
  INVOICE_SELLER_NAME: 'Fleetlink Test B.V.',
  INVOICE_SELLER_ADDRESS: 'Herengracht 1, 1015 BA Amsterdam',
  INVOICE_SELLER_VAT: 'NL000099998B57',
  INVOICE_SELLER_COUNTRY: 'NL',
};
const company = (name: string, country: string, vat: string) => ({
  type: 'COMPANY',
  name,
  country,
  address: 'Hauptstraße 5, 10115 Berlin',
  email: 'billing@example.com',
  vat,
});


const day = (m: Month, d: number, hour = 0) => new Date(Date.UTC(m.year, m.month - 1, d, hour));

describe('invoices', () => {
  let c: TestConsole;
  let call: TestConsole['call'];
  const month = previousMonth(new Date());
  const days = daysInMonth(month);
  const year = new Date().getUTCFullYear();
  const org: Record<string, string> = {};

  /** A device created at `created` (its lifetime opens then), in organization `organizationId`. */
  const seedDevice = async (organizationId: string, name: string, created: Date) => {
    const [d] = await c.database.db.insert(devices).values({ organizationId, name, installationKey: 'k', createdAt: created }).returning();
    return d.id;
  };

  beforeAll(async () => {
    c = await startTestConsole(seller);
    call = c.call;
    // Acme (Germany, with a VAT number): reverse charge. Beta (Netherlands, like the seller): 21 %.
    // The user's personal organization (no country): 21 %. Idle has no devices: no invoice.
    org.acme = (await call(ADMIN, 'POST', '/api/organization', company('Acme GmbH', 'DE', 'DE123456789'))).body.id;
    org.beta = (await call(ADMIN, 'POST', '/api/organization', company('Beta B.V.', 'NL', 'NL123456789B01'))).body.id;
    org.idle = (await call(ADMIN, 'POST', '/api/organization', company('Idle', 'NL', ''))).body.id;
    org.personal = (await call(USER, 'GET', '/api/organizations')).body[0].id;

    const twoMonthsAgo = day(month, 1, -24 * 20);
    await seedDevice(org.acme, 'acme-full', twoMonthsAgo);
    // Lived from the 11th to noon on the 20th of the month, then was deleted: 10 days.
    const gone = await seedDevice(org.acme, 'acme-gone', day(month, 11, 9));
    await call(ADMIN, 'DELETE', `/api/device/${gone}`);
    await c.database.db.update(deviceLifetimes).set({ endedAt: day(month, 20, 12) }).where(eq(deviceLifetimes.deviceId, gone));
    await seedDevice(org.beta, 'beta-full', twoMonthsAgo);
    await seedDevice(org.personal, 'personal-full', day(month, 1));
    // Created this month: on next month's invoice, not on this one.
    await seedDevice(org.personal, 'personal-new', day({ year: month.month === 12 ? month.year + 1 : month.year, month: (month.month % 12) + 1 }, 1, 1));
  });
  afterAll(async () => c?.close());

  const invoicesOf = async (who: string, organizationId: string): Promise<Invoice[]> => (await call(who, 'GET', `/api/organization/${organizationId}`)).body.invoices;
  const pdfOf = async (who: string, organizationId: string, invoice: Invoice) => {
    const link = await call(who, 'GET', `/api/request-invoice/${organizationId}/${invoice.id}?format=pdf`);
    expect(link.status).toBe(200);
    const res = await c.api(link.body);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="invoice-${invoice.number}.pdf"`);
    return pdfText(new Uint8Array(await res.arrayBuffer()));
  };

  it('is run by a realm ADMIN only', async () => {
    expect((await call(USER, 'GET', '/api/invoice/create')).status).toBe(403);
    expect((await call(undefined, 'GET', '/api/invoice/create')).status).toBe(401);
  });

  it('makes one invoice per organization that had devices last month, numbered without gaps', async () => {
    const run = await call(ADMIN, 'GET', '/api/invoice/create');
    expect(run.status).toBe(200);
    // In the order of the organizations' names.
    expect(run.body).toEqual<InvoiceRun>({ period: monthKey(month), created: [1, 2, 3].map((n) => `${year}-000${n}`), alreadyInvoiced: 0 });
    expect(await invoicesOf(ADMIN, org.idle)).toEqual([]);
  });

  it('creates nothing new when run again for the same month, and says so', async () => {
    const again = await call(ADMIN, 'GET', '/api/invoice/create');
    expect(again.body).toEqual({ period: monthKey(month), created: [], alreadyInvoiced: 3 });
  });

  it('prorates by days and charges VAT by the buyer: reverse charge abroad', async () => {
    const [acme] = await invoicesOf(ADMIN, org.acme);
    const net = 1000 + lineAmountCents(1000, 10, days);
    expect(acme).toMatchObject({ number: `${year}-0001`, period: monthKey(month), totalCents: net, total: net / 100, currency: 'EUR' });
    expect(acme.date).toBe(new Date().toISOString().slice(0, 10));
    const text = await pdfOf(ADMIN, org.acme, acme);
    expect(text).toContain('Fleetlink Test B.V.');
    expect(text).toContain('VAT NL000099998B57');
    expect(text).toContain('Acme GmbH');
    expect(text).toContain('VAT DE123456789');
    expect(text).toContain(`Invoice number: ${year}-0001`);
    expect(text).toMatch(new RegExp(`acme-full\\s+${days} / ${days}\\s+€10\\.00\\s+€10\\.00`));
    expect(text).toMatch(new RegExp(`acme-gone\\s+10 / ${days}\\s+€10\\.00\\s+${formatEuroCents(lineAmountCents(1000, 10, days)).replace('.', '\\.')}`));
    expect(text).toMatch(/VAT 0 %\s+€0\.00/);
    expect(text).toContain(REVERSE_CHARGE_MENTION);
    expect(text).toMatch(new RegExp(`Total \\(EUR\\)\\s+${formatEuroCents(net).replace('.', '\\.')}`));
  });

  it('charges the seller’s rate to a company in its country and to a person', async () => {
    const [beta] = await invoicesOf(ADMIN, org.beta);
    expect(beta).toMatchObject({ number: `${year}-0002`, totalCents: 1210 });
    const betaText = await pdfOf(ADMIN, org.beta, beta);
    expect(betaText).toMatch(/Net\s+€10\.00/);
    expect(betaText).toMatch(/VAT 21 %\s+€2\.10/);
    expect(betaText).toMatch(/Total \(EUR\)\s+€12\.10/);
    expect(betaText).not.toContain('reverse charge');

    const [personal] = await invoicesOf(USER, org.personal);
    expect(personal).toMatchObject({ number: `${year}-0003`, totalCents: 1210 });
    const text = await pdfOf(USER, org.personal, personal);
    expect(text).toContain('personal-full');
    expect(text).not.toContain('personal-new');
  });

  it('hands a PDF link to members only, once, and refuses what is malformed', async () => {
    const [acme] = await invoicesOf(ADMIN, org.acme);
    // The user is no member of Acme: the same 404 as for an invoice that does not exist.
    const foreign = await call(USER, 'GET', `/api/request-invoice/${org.acme}/${acme.id}?format=pdf`);
    expect(foreign).toMatchObject({ status: 404, body: { message: 'Organization not found.' } });
    const [personal] = await invoicesOf(USER, org.personal);
    const wrongOrg = await call(USER, 'GET', `/api/request-invoice/${org.personal}/${acme.id}?format=pdf`);
    expect(wrongOrg).toMatchObject({ status: 404, body: { message: 'Invoice not found.' } });
    expect((await call(USER, 'GET', `/api/request-invoice/${org.personal}/${personal.id}?format=xml`)).body).toMatchObject({
      fields: { format: 'The invoice format must be pdf.' },
    });
    expect((await call(USER, 'GET', `/api/request-invoice/${org.personal}/nope?format=pdf`)).status).toBe(400);

    const link = (await call(USER, 'GET', `/api/request-invoice/${org.personal}/${personal.id}?format=pdf`)).body as string;
    expect(link).toMatch(/^\/api\/invoice-pdf\/[0-9a-f-]{36}\?token=[\w-]{43}$/);
    // Single-purpose: the token opens this link and no other.
    const other = (await call(USER, 'GET', `/api/request-invoice/${org.personal}/${personal.id}?format=pdf`)).body as string;
    expect((await c.api(`${link.split('?')[0]}?${other.split('?')[1]}`)).status).toBe(410);
    expect((await c.api(link)).status).toBe(200);
    const used = await c.api(link);
    expect(used.status).toBe(410);
    expect((await used.json()).message).toMatch(/used already or has expired/);
  });

  it('writes each run to the audit trail', async () => {
    const { body } = await call(ADMIN, 'GET', '/api/audit?kind=invoice.run');
    expect(body.entries.map((e: { details: unknown }) => e.details)).toEqual([
      { period: monthKey(month), created: 0, numbers: null, alreadyInvoiced: 3 },
      { period: monthKey(month), created: 3, numbers: `${year}-0001 to ${year}-0003`, alreadyInvoiced: 0 },
    ]);
  });
});

describe('device history for invoices', () => {
  it('keeps when a device was created, moved to another organization, renamed and deleted', async () => {
    const c = await startTestConsole();
    const call = c.call;
    try {
      const a = (await call(ADMIN, 'POST', '/api/organization', company('A', 'DE', ''))).body.id;
      const b = (await call(ADMIN, 'POST', '/api/organization', company('B', 'DE', ''))).body.id;
      const id = (await call(ADMIN, 'POST', '/api/device', { organization: a, name: 'first', branch: 'PRODUCTION' })).body.id;
      expect((await call(ADMIN, 'PUT', `/api/device/${id}`, { organization: b, name: 'second', branch: 'PRODUCTION' })).status).toBe(200);
      // A heartbeat-like write leaves the history alone.
      await c.database.db.update(devices).set({ online: true, lastResponse: new Date() }).where(eq(devices.id, id));
      expect((await call(ADMIN, 'PUT', `/api/device/${id}`, { organization: b, name: 'third', branch: 'PRODUCTION' })).status).toBe(200);
      expect((await call(ADMIN, 'DELETE', `/api/device/${id}`)).status).toBe(204);
      const rows = await c.database.db.select().from(deviceLifetimes).where(eq(deviceLifetimes.deviceId, id)).orderBy(deviceLifetimes.startedAt);
      expect(rows.map((r) => [r.organizationId, r.deviceName, r.endedAt !== null])).toEqual([
        [a, 'first', true],
        [b, 'third', true],
      ]);
      expect(rows[0].endedAt!.getTime()).toBeLessThanOrEqual(rows[1].startedAt.getTime());
    } finally {
      await c.close();
    }
  });
});

describe('concurrent invoice runs', () => {
  it('make each invoice once, with gapless numbers', async () => {
    const c = await startTestConsole();
    const call = c.call;
    try {
      const lastMonth = previousMonth(new Date());
      for (const name of ['One', 'Two', 'Three', 'Four']) {
        const id = (await call(ADMIN, 'POST', '/api/organization', company(name, 'DE', ''))).body.id;
        await c.database.db.insert(devices).values({ organizationId: id, name: `${name}-device`, installationKey: 'k', createdAt: day(lastMonth, 2) });
      }
      const runs = await Promise.all([1, 2, 3].map(() => call(ADMIN, 'GET', '/api/invoice/create')));
      expect(runs.map((r) => r.status)).toEqual([200, 200, 200]);
      const numbers = runs.flatMap((r) => (r.body as InvoiceRun).created).sort();
      const year = new Date().getUTCFullYear();
      expect(numbers).toEqual([1, 2, 3, 4].map((n) => `${year}-000${n}`));
      expect(runs.map((r) => (r.body as InvoiceRun).alreadyInvoiced).sort()).toEqual([0, 4, 4]);
    } finally {
      await c.close();
    }
  });
});
