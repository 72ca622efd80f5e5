import { describe, expect, it } from 'vitest';
import { dayLabel, dayRows, formatHourMinute, isWeekend, splitAtMidnight, timelineBars, toPeriods } from './timeline';

// Local times throughout: the grid is drawn in the viewer's time zone.
const at = (day: number, h = 0, m = 0) => new Date(2026, 10, day, h, m); // November 2026; the 21st is a Saturday.

describe('weekend detection', () => {
  it('is Saturday and Sunday only', () => {
    expect([20, 21, 22, 23].map((d) => isWeekend(at(d, 12)))).toEqual([false, true, true, false]);
    expect(isWeekend(at(21, 0, 0))).toBe(true);
    expect(isWeekend(new Date(2026, 10, 22, 23, 59, 59, 999))).toBe(true);
  });
});

describe('day rows', () => {
  it('are the last 8 days ending today, oldest first, midnight to midnight, weekends flagged', () => {
    const rows = dayRows(at(24, 15, 30));
    expect(rows).toHaveLength(8);
    expect(rows[0]!.start).toEqual(at(17));
    expect(rows[7]!.start).toEqual(at(24));
    expect(rows[7]!.end).toEqual(at(25));
    expect(rows.map((r) => r.weekend)).toEqual([false, false, false, false, true, true, false, false]);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.start).toEqual(rows[i - 1]!.end);
  });

  it('cross month boundaries', () => {
    const rows = dayRows(new Date(2026, 11, 3, 1));
    expect(rows[0]!.start).toEqual(at(26));
    expect(rows.map((r) => r.start.getDate())).toEqual([26, 27, 28, 29, 30, 1, 2, 3]);
  });
});

describe('midnight splitting', () => {
  it('keeps a period inside one day whole', () => {
    expect(splitAtMidnight({ start: at(20, 8), end: at(20, 17) }, at(24))).toEqual([{ start: at(20, 8), end: at(20, 17) }]);
  });

  it('splits a period at every midnight it crosses', () => {
    expect(splitAtMidnight({ start: at(20, 22), end: at(22, 3) }, at(24))).toEqual([
      { start: at(20, 22), end: at(21) },
      { start: at(21), end: at(22) },
      { start: at(22), end: at(22, 3) },
    ]);
  });

  it('ends an open period now, and gives nothing for an empty one', () => {
    expect(splitAtMidnight({ start: at(23, 23), end: null }, at(24, 1))).toEqual([
      { start: at(23, 23), end: at(24) },
      { start: at(24), end: at(24, 1) },
    ]);
    expect(splitAtMidnight({ start: at(23, 5), end: at(23, 5) }, at(24))).toEqual([]);
  });
});

describe('timeline bars', () => {
  const now = at(24, 12);
  const rows = dayRows(now);

  it('places each piece in its day row as fractions of the day', () => {
    const bars = timelineBars([{ start: at(23, 18), end: at(24, 6) }], rows, now);
    expect(bars[6]).toEqual([{ from: 0.75, to: 1, start: at(23, 18), end: at(24), ongoing: false }]);
    expect(bars[7]).toEqual([{ from: 0, to: 0.25, start: at(24), end: at(24, 6), ongoing: false }]);
    expect(bars.slice(0, 6).every((b) => b.length === 0)).toBe(true);
  });

  it('clips periods that began before the first row, and draws an open one up to now', () => {
    const bars = timelineBars([{ start: at(10, 9), end: at(17, 6) }, { start: at(24, 9), end: null }], rows, now);
    expect(bars[0]).toEqual([{ from: 0, to: 0.25, start: at(17), end: at(17, 6), ongoing: false }]);
    expect(bars[7]).toEqual([{ from: 9 / 24, to: 0.5, start: at(24, 9), end: at(24, 12), ongoing: true }]);
  });

  it('leaves out periods entirely before the grid and sorts bars within a row', () => {
    const bars = timelineBars(
      [
        { start: at(22, 14), end: at(22, 15) },
        { start: at(22, 2), end: at(22, 3) },
        { start: at(1, 1), end: at(2, 1) },
      ],
      rows,
      now,
    );
    expect(bars[5]!.map((b) => b.start)).toEqual([at(22, 2), at(22, 14)]);
    expect(bars.flat()).toHaveLength(2);
  });
});

describe('parsing and labels', () => {
  it('drops unreadable or inverted entries', () => {
    const periods = toPeriods([
      { start: at(20, 1).toISOString(), end: at(20, 2).toISOString() },
      { start: 'nonsense', end: null },
      { start: at(20, 3).toISOString(), end: at(20, 2).toISOString() },
      { start: at(24, 3).toISOString(), end: null },
    ]);
    expect(periods).toEqual([
      { start: at(20, 1), end: at(20, 2) },
      { start: at(24, 3), end: null },
    ]);
  });

  it('formats HH:MM and day labels', () => {
    expect(formatHourMinute(at(24, 7, 5))).toBe('07:05');
    expect(formatHourMinute(at(24, 0, 0))).toBe('00:00');
    expect(dayLabel(at(21))).toBe('Sat 21 Nov');
  });
});
