import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { formatInvoiceDate, formatInvoicePeriod } from '@fleetlink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../apps/server/src/db/client.js';
import { devices, organizationMembers, organizations } from '../apps/server/src/db/schema/index.js';
import { monthKey, previousMonth } from '../apps/server/src/modules/invoices/invoice-arithmetic.js';
import { pdfText } from '../apps/server/src/modules/invoices/pdf-text.test-support.js';
import { admin, user } from './support/accounts';
import { useConsoleSuite } from './support/console-suite';
import { screenshotPath } from './support/screenshots';

/**
 * Issue 33, Playwright: an admin creates the month's invoices on /operator and sees how many; a
 * member of the invoiced organization downloads its PDF from the Invoices tab.
 *
 * Invoices bill the previous calendar month, which devices created through the API today are not
 * in: the console's database is seeded before it starts with an organization whose two devices
 * were created two months ago (PGlite allows one process at a time, so the seeding is done first).
 */

const TEST_TIMEOUT_MS = 120_000;
const dataDir = mkdtempSync(path.join(tmpdir(), 'fleetlink-e2e-invoices-'));
let organizationId: string;

// Registered before the suite: runs before its console starts, and (hooks unwind) is removed after it stops.
beforeAll(async () => {
  const database = await openDatabase({ dataDir });
  try {
    const [org] = await database.db
      .insert(organizations)
      .values({ type: 'COMPANY', name: 'Invoiced B.V.', country: 'NL', address: 'Damrak 1, 1012 LG Amsterdam', email: 'billing@invoiced.example', vat: 'NL123456789B01' })
      .returning();
    organizationId = org.id;
    await database.db.insert(organizationMembers).values({ organizationId, email: user.email, role: 'CREATOR' });
    const twoMonthsAgo = new Date(Date.now() - 62 * 86_400_000);
    await database.db.insert(devices).values(['press-1', 'press-2'].map((name) => ({ organizationId, name, installationKey: name, createdAt: twoMonthsAgo })));
  } finally {
    await database.close();
  }
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const suite = useConsoleSuite({ DATA_DIR: dataDir });
const month = previousMonth(new Date());
const monthName = formatInvoicePeriod(monthKey(month));
const number = `${new Date().getUTCFullYear()}-0001`;

describe('invoices', () => {
  it('are created by an admin on /operator, who sees how many and for which month', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, pageErrors } = await suite.signedIn(admin, '/operator');
    await page.getByRole('button', { name: 'Create invoices' }).click();
    const status = page.getByTestId('invoice-run');
    await status.waitFor();
    expect(await status.innerText()).toBe(`1 invoice created for ${monthName} (${number}).`);
    await page.screenshot({ path: screenshotPath('invoices-operator.png'), fullPage: true });

    await page.getByRole('button', { name: 'Create invoices' }).click();
    await expect.poll(() => status.innerText()).toBe(`No new invoices: ${monthName} was invoiced already.`);
    expect(pageErrors).toEqual([]);
  });

  it('are listed for a member, who downloads the PDF', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page, pageErrors } = await suite.signedIn(user, `/organizations/${organizationId}`);
    await page.getByRole('link', { name: 'Invoices' }).click();
    await page.waitForURL(`${suite.stack.url}/organizations/${organizationId}/invoices`);
    const row = page.getByTestId('invoice-row');
    await row.waitFor();
    const cells = await row.getByRole('cell').allInnerTexts();
    const day = formatInvoiceDate(new Date().toISOString().slice(0, 10));
    // 2 devices × €5.00 (the default price) for the whole month, plus 21 % Dutch VAT.
    expect(cells.slice(0, 3)).toEqual([number, day, '€12.10']);
    await page.screenshot({ path: screenshotPath('invoices-tab.png'), fullPage: true });

    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: `PDF of invoice ${number}` }).click()]);
    expect(download.suggestedFilename()).toBe(`invoice-${number}.pdf`);
    expect(download.url()).toMatch(new RegExp(`^${suite.stack.url}/api/invoice-pdf/[0-9a-f-]{36}\\?token=`));
    const text = await pdfText(readFileSync((await download.path())!));
    expect(text).toContain('Invoiced B.V.');
    expect(text).toMatch(/press-1\s+\d+ \/ \d+\s+€5\.00\s+€5\.00/);
    expect(text).toMatch(/VAT 21 %\s+€2\.10/);
    expect(text).toMatch(/Total \(EUR\)\s+€12\.10/);
    expect(pageErrors).toEqual([]);
  });

  it('are not handed to someone outside the organization', async () => {
    const detail = await suite.api(user, 'GET', `/api/organization/${organizationId}`);
    const invoiceId = detail.body.invoices[0].id;
    const outsider = await suite.api(admin, 'GET', `/api/request-invoice/${organizationId}/${invoiceId}?format=pdf`);
    expect(outsider.status).toBe(404);
  });
});
