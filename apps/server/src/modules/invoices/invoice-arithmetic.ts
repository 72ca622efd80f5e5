/**
 * The arithmetic of an invoice, in integer euro cents (README, Invoices). A device is billed for
 * each UTC calendar day of the month on which it belonged to the organization, the day it was
 * created and the day it was deleted included; its line is the month's price × days ÷ days of the
 * month, rounded half up to the cent. Net is the sum of the lines; VAT is net × rate, rounded half
 * up to the cent once for the invoice; total is net + VAT.
 */

const DAY_MS = 86_400_000;

/** A calendar month, UTC. */
export interface Month {
  year: number;
  /** 1–12. */
  month: number;
}

export const monthStart = (m: Month) => new Date(Date.UTC(m.year, m.month - 1, 1));
export const monthEnd = (m: Month) => new Date(Date.UTC(m.year, m.month, 1));
export const daysInMonth = (m: Month) => Math.round((monthEnd(m).getTime() - monthStart(m).getTime()) / DAY_MS);
/** `2026-10`: how a month is named in invoices and the API. */
export const monthKey = (m: Month) => `${m.year}-${String(m.month).padStart(2, '0')}`;

/** The calendar month before the one `now` is in (UTC): what a run on `now` invoices. */
export function previousMonth(now: Date): Month {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth(); // 0-based: this is already the previous month, 1-based
  return month === 0 ? { year: year - 1, month: 12 } : { year, month };
}

/** A span a device belonged to an organization; `end` null while it still does. */
export interface Span {
  start: Date;
  end: Date | null;
}

/**
 * The days of `m` on which the device existed in one of `spans`: each UTC day touched by a span
 * counts once, however many spans touch it (a device moved away and back within a day).
 */
export function billedDays(spans: readonly Span[], m: Month): number {
  const first = monthStart(m).getTime();
  const total = daysInMonth(m);
  const days = new Set<number>();
  for (const span of spans) {
    const from = Math.max(span.start.getTime(), first);
    // The end instant itself is not part of the span: a device deleted at midnight did not live that day.
    const to = Math.min((span.end?.getTime() ?? Infinity) - 1, monthEnd(m).getTime() - 1);
    if (to < from) continue;
    for (let d = Math.floor((from - first) / DAY_MS); d <= Math.floor((to - first) / DAY_MS) && d < total; d++) days.add(d);
  }
  return days.size;
}

/** a ÷ b rounded half up, for non-negative integers (commercial rounding; all amounts here are ≥ 0). */
export function divideRoundingHalfUp(a: number, b: number): number {
  if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || a < 0 || b <= 0) throw new RangeError(`cannot divide ${a} by ${b}`);
  return Math.floor((2 * a + b) / (2 * b));
}

/** A device's line: the month's price prorated by its days. */
export const lineAmountCents = (unitPriceCents: number, days: number, monthDays: number) =>
  divideRoundingHalfUp(unitPriceCents * days, monthDays);

/** VAT on the net, at a rate in hundredths of a percent (2100 = 21 %). */
export const vatCents = (netCents: number, rateBp: number) => divideRoundingHalfUp(netCents * rateBp, 10_000);

export interface Totals {
  netCents: number;
  vatCents: number;
  totalCents: number;
}

export function totalsOf(lineAmounts: readonly number[], rateBp: number): Totals {
  const net = lineAmounts.reduce((sum, a) => sum + a, 0);
  const vat = vatCents(net, rateBp);
  return { netCents: net, vatCents: vat, totalCents: net + vat };
}
