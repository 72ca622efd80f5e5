import { describe, expect, it } from 'vitest';
import { formatEuroCents, formatInvoiceDate, formatInvoiceNumbers, formatInvoicePeriod } from './format-invoice.js';

describe('invoice formats', () => {
  it('shows euros with 2 decimals and thousands separators', () => {
    expect(formatEuroCents(0)).toBe('€0.00');
    expect(formatEuroCents(5)).toBe('€0.05');
    expect(formatEuroCents(123456)).toBe('€1,234.56');
  });

  it('shows dates as dd MMM yyyy and periods as month and year', () => {
    expect(formatInvoiceDate('2026-09-03')).toBe('03 Sep 2026');
    expect(formatInvoiceDate('2027-01-31')).toBe('31 Jan 2027');
    expect(formatInvoicePeriod('2026-09')).toBe('September 2026');
    expect(formatInvoicePeriod('2026-12')).toBe('December 2026');
  });

  it('names the numbers of a run as a range', () => {
    expect(formatInvoiceNumbers(['2026-0001', '2026-0002', '2026-0003'])).toBe('2026-0001 to 2026-0003');
    expect(formatInvoiceNumbers(['2026-0007'])).toBe('2026-0007');
    expect(formatInvoiceNumbers([])).toBe('');
  });
});
