import { describe, expect, it } from 'vitest';
import { isoTimes } from './iso-times.js';

describe('isoTimes (issue 69)', () => {
  it('writes every time as Date#toISOString does, across days, years and before 1970', () => {
    const times = [
      0, 1, 999, 1000, 59_999, 3_599_999, 86_399_999, 86_400_000, -1, -86_400_000, -86_400_001,
      Date.UTC(2026, 11, 1, 23, 59, 59, 999), Date.UTC(2026, 11, 2), Date.UTC(2024, 1, 29, 12, 0, 0, 7), Date.UTC(1969, 11, 31, 23, 59, 59, 1),
    ];
    // A day of samples every five minutes, crossing midnight, as a metrics answer holds them.
    const start = Date.UTC(2026, 11, 1, 13, 7, 3, 757);
    for (let i = 0; i < 288; i++) times.push(start + i * 300_000);
    for (let i = 0; i < 1000; i++) times.push(Math.floor((Math.random() - 0.3) * 4e12));
    expect(isoTimes(times)).toEqual(times.map((t) => new Date(t).toISOString()));
  });
});
