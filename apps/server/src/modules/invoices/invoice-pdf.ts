import { createRequire } from 'node:module';
import { countryName, formatEuroCents, formatInvoiceDate, formatInvoicePeriod, REVERSE_CHARGE_MENTION } from '@fleetlink/contract';
import PDFDocument from 'pdfkit';
import type { InvoiceParty } from '../../db/schema/index.js';
import type { InvoiceRow } from './invoices.repository.js';

// pdfkit's built-in fonts are Latin-1 only; DejaVu (an npm package, so nothing is fetched at run
// time) has the euro sign and the names and addresses people type in any European language.
const require = createRequire(import.meta.url);
const REGULAR = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

const MARGIN = 50;
/** Left edges of the line table's columns: device, days, unit price, amount. */
const COLUMNS = [MARGIN, 300, 370, 460] as const;
const RIGHT = 545;

const percent = (bp: number) => `${(bp / 100).toLocaleString('en-IE', { maximumFractionDigits: 2 })} %`;

/** A party's block of lines: what is known of it, nothing for what is not. */
function partyLines(p: InvoiceParty): string[] {
  return [p.name, ...(p.address ?? '').split(/\r?\n/), p.country ? countryName(p.country) : '', p.vat ? `VAT ${p.vat}` : '', p.email ?? ''].filter(
    (l) => l.trim() !== '',
  );
}

/** The invoice as a PDF (A4): seller and buyer, number and dates, one line per device, net, VAT and total. */
export function renderInvoicePdf(invoice: InvoiceRow): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: `Invoice ${invoice.number}`, Author: invoice.seller.name } });
  doc.registerFont('regular', REGULAR);
  doc.registerFont('bold', BOLD);
  const done = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('bold').fontSize(20).text(invoice.seller.name, MARGIN, MARGIN);
  doc.font('regular').fontSize(9).text(partyLines(invoice.seller).slice(1).join('\n'));
  doc.font('bold').fontSize(16).text('Invoice', MARGIN, 150);
  doc.font('regular').fontSize(10);
  doc.text(`Invoice number: ${invoice.number}`);
  doc.text(`Invoice date: ${formatInvoiceDate(invoice.invoiceDate)}`);
  doc.text(`Period: ${formatInvoicePeriod(invoice.period)}`);
  doc.font('bold').text('Bill to', 330, 150 + 22);
  doc.font('regular').text(partyLines(invoice.buyer).join('\n'), 330);

  let y = Math.max(doc.y, 260) + 20;
  const header = ['Device', 'Days', 'Unit price', 'Amount'];
  const row = (cells: string[], font: 'regular' | 'bold') => {
    if (y > doc.page.height - MARGIN - 120) {
      // A long invoice goes on: each page says whose it is and what its columns are.
      doc.addPage();
      doc.font('regular').fontSize(9).text(`Invoice ${invoice.number} (continued)`, MARGIN, MARGIN);
      y = MARGIN + 24;
      row(header, 'bold');
    }
    doc.font(font).fontSize(10);
    // One line per device: a long name is cut with an ellipsis (the height bounds it to the line).
    doc.text(cells[0], COLUMNS[0], y, { width: COLUMNS[1] - COLUMNS[0] - 10, height: 12, ellipsis: true });
    cells.slice(1).forEach((cell, i) => doc.text(cell, COLUMNS[i + 1], y, { width: (COLUMNS[i + 2] ?? RIGHT) - COLUMNS[i + 1], align: 'right', lineBreak: false }));
    y += 18;
  };
  row(header, 'bold');
  doc.moveTo(MARGIN, y - 4).lineTo(RIGHT, y - 4).stroke();
  const unit = formatEuroCents(invoice.unitPriceCents);
  for (const line of invoice.lines) row([line.deviceName, `${line.days} / ${invoice.daysInPeriod}`, unit, formatEuroCents(line.amountCents)], 'regular');
  doc.moveTo(MARGIN, y).lineTo(RIGHT, y).stroke();
  y += 10;

  const total = (label: string, amount: string, font: 'regular' | 'bold' = 'regular') => {
    doc.font(font).fontSize(10).text(label, COLUMNS[1], y, { width: COLUMNS[3] - COLUMNS[1] });
    doc.text(amount, COLUMNS[3], y, { width: RIGHT - COLUMNS[3], align: 'right' });
    y += 18;
  };
  total('Net', formatEuroCents(invoice.netCents));
  total(`VAT ${percent(invoice.vatRateBp)}`, formatEuroCents(invoice.vatCents));
  total('Total (EUR)', formatEuroCents(invoice.totalCents), 'bold');
  y += 10;
  doc.font('regular').fontSize(9);
  if (invoice.reverseCharge) doc.text(REVERSE_CHARGE_MENTION, MARGIN, y);
  doc.text(`Each device is billed ${unit} per month, prorated by the days of ${formatInvoicePeriod(invoice.period)} it existed.`, MARGIN);

  doc.end();
  return done;
}
