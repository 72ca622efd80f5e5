/**
 * How an invoice's money and dates read, the same in the console and on the PDF. Month names are
 * fixed English ones: locale data differs between ICU versions ('Sep' or 'Sept').
 */

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const euro = new Intl.NumberFormat('en-IE', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** An amount in cents: `€1,234.50` (SPEC §9: EUR with 2 decimals). */
export const formatEuroCents = (cents: number) => euro.format(cents / 100);

/** An invoice date, `YYYY-MM-DD`, as 'dd MMM yyyy': `03 Sep 2026`. */
export function formatInvoiceDate(isoDay: string): string {
  const [year, month, day] = isoDay.split('-');
  return `${day} ${MONTHS[Number(month) - 1].slice(0, 3)} ${year}`;
}

/**
 * The numbers one run made, which follow each other (a run holds the lock): `2026-0001 to 2026-0040`,
 * a single number alone, or '' for none.
 */
export const formatInvoiceNumbers = (numbers: readonly string[]) => (numbers.length > 1 ? `${numbers[0]} to ${numbers[numbers.length - 1]}` : (numbers[0] ?? ''));

/** The month an invoice bills, `YYYY-MM`, as `September 2026`. */
export function formatInvoicePeriod(period: string): string {
  const [year, month] = period.split('-');
  return `${MONTHS[Number(month) - 1]} ${year}`;
}
