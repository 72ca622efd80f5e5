import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDayMonthTime, formatLongDate } from './date-format';

describe('formatDateTime', () => {
  it('formats day/month/year hour:minute:second in local time', () => {
    expect(formatDateTime(new Date(2026, 10, 22, 10, 15, 3))).toBe('22/11/2026 10:15:03');
  });

  it('zero pads every field and uses a 24-hour clock', () => {
    expect(formatDateTime(new Date(2023, 0, 5, 0, 7, 9))).toBe('05/01/2023 00:07:09');
    expect(formatDateTime(new Date(2023, 11, 31, 23, 59, 59))).toBe('31/12/2023 23:59:59');
  });
});

describe('formatLongDate', () => {
  it('writes the month name', () => {
    expect(formatLongDate(new Date(2023, 2, 27))).toBe('27 March 2023');
  });
});

describe('formatDayMonthTime', () => {
  it("writes 'dd MMM yyyy HH:mm' with an English short month, zero padded, 24-hour clock", () => {
    expect(formatDayMonthTime(new Date(2026, 2, 5, 14, 7, 59))).toBe('05 Mar 2026 14:07');
    expect(formatDayMonthTime(new Date(2023, 11, 31, 0, 0))).toBe('31 Dec 2023 00:00');
  });
});
