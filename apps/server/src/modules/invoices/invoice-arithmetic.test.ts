import { describe, expect, it } from 'vitest';
import { billedDays, daysInMonth, divideRoundingHalfUp, lineAmountCents, previousMonth, totalsOf, vatCents } from './invoice-arithmetic.js';

const oct = { year: 2026, month: 10 };
const at = (iso: string) => new Date(iso);

describe('the invoiced month', () => {
  it('is the calendar month before the run, across a year', () => {
    expect(previousMonth(at('2026-11-01T00:00:00Z'))).toEqual(oct);
    expect(previousMonth(at('2026-11-30T23:59:59Z'))).toEqual(oct);
    expect(previousMonth(at('2027-01-15T10:00:00Z'))).toEqual({ year: 2026, month: 12 });
  });

  it('has its calendar days, leap years included', () => {
    expect(daysInMonth(oct)).toBe(31);
    expect(daysInMonth({ year: 2026, month: 2 })).toBe(28);
    expect(daysInMonth({ year: 2028, month: 2 })).toBe(29);
  });
});

describe('proration by days', () => {
  it('bills a device that lived all month every day', () => {
    expect(billedDays([{ start: at('2026-01-01T00:00:00Z'), end: null }], oct)).toBe(31);
    expect(billedDays([{ start: at('2026-01-01T00:00:00Z'), end: at('2026-11-03T00:00:00Z') }], oct)).toBe(31);
  });

  it('counts the day of creation and the day of deletion', () => {
    expect(billedDays([{ start: at('2026-10-10T23:00:00Z'), end: null }], oct)).toBe(22);
    expect(billedDays([{ start: at('2026-09-01T00:00:00Z'), end: at('2026-10-15T08:00:00Z') }], oct)).toBe(15);
    expect(billedDays([{ start: at('2026-10-05T09:00:00Z'), end: at('2026-10-05T10:00:00Z') }], oct)).toBe(1);
  });

  it('does not count the day a device was deleted at midnight, nor days outside the month', () => {
    expect(billedDays([{ start: at('2026-09-01T00:00:00Z'), end: at('2026-10-15T00:00:00Z') }], oct)).toBe(14);
    expect(billedDays([{ start: at('2026-09-01T00:00:00Z'), end: at('2026-10-01T00:00:00Z') }], oct)).toBe(0);
    expect(billedDays([{ start: at('2026-11-01T00:00:00Z'), end: null }], oct)).toBe(0);
  });

  it('counts a day once when a device left and came back on it', () => {
    const spans = [
      { start: at('2026-10-01T00:00:00Z'), end: at('2026-10-10T12:00:00Z') },
      { start: at('2026-10-10T13:00:00Z'), end: at('2026-10-20T12:00:00Z') },
    ];
    expect(billedDays(spans, oct)).toBe(20);
  });

  it('prorates the month price and rounds each line half up to the cent', () => {
    expect(lineAmountCents(500, 31, 31)).toBe(500);
    expect(lineAmountCents(500, 15, 31)).toBe(242); // 241.935…
    expect(lineAmountCents(500, 1, 31)).toBe(16); // 16.129…
    expect(lineAmountCents(100, 1, 8)).toBe(13); // 12.5 → 13 (half up)
    expect(lineAmountCents(0, 31, 31)).toBe(0);
  });
});

describe('VAT and totals', () => {
  it('rounds VAT half up once, on the net', () => {
    expect(vatCents(1000, 2100)).toBe(210);
    expect(vatCents(250, 2100)).toBe(53); // 52.5 → 53
    expect(vatCents(242, 2550)).toBe(62); // 61.71
    expect(vatCents(1000, 0)).toBe(0);
  });

  it('sums lines to the net and adds VAT for the total', () => {
    // 3 lines of a 31-day month at €5.00: full, 15 days, 1 day.
    const lines = [lineAmountCents(500, 31, 31), lineAmountCents(500, 15, 31), lineAmountCents(500, 1, 31)];
    expect(totalsOf(lines, 2100)).toEqual({ netCents: 758, vatCents: 159, totalCents: 917 });
    expect(totalsOf(lines, 0)).toEqual({ netCents: 758, vatCents: 0, totalCents: 758 });
    expect(totalsOf([], 2100)).toEqual({ netCents: 0, vatCents: 0, totalCents: 0 });
  });

  it('refuses what is not integer money rather than rounding it silently', () => {
    expect(() => divideRoundingHalfUp(1.5, 2)).toThrow(RangeError);
    expect(() => divideRoundingHalfUp(1, 0)).toThrow(RangeError);
  });
});
