/**
 * The weekly time grid of the Network card (SPEC §9): the last 8 days as rows, 24 hour columns,
 * weekends shaded, online periods drawn as bars split at midnight. Pure; local time throughout.
 */

export const TIMELINE_DAYS = 8;
export const HOURS_PER_DAY = 24;

export interface Period {
  start: Date;
  /** null while it is still going on. */
  end: Date | null;
}

export interface DayRow {
  /** Local midnight that starts the day. */
  start: Date;
  /** Local midnight that ends it (23, 24 or 25 hours later around daylight-saving changes). */
  end: Date;
  weekend: boolean;
}

/** A bar inside one day row, as fractions of that day (0 = midnight, 1 = the next midnight). */
export interface DayBar {
  from: number;
  to: number;
  start: Date;
  end: Date;
  /** The period is still open and reaches now. */
  ongoing: boolean;
}

export const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate());
export const nextMidnight = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1);

/** Saturday or Sunday, local time. */
export const isWeekend = (d: Date) => d.getDay() === 0 || d.getDay() === 6;

/** The last `days` days ending with today, oldest first. */
export function dayRows(now: Date, days = TIMELINE_DAYS): DayRow[] {
  const rows: DayRow[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() - i);
    rows.push({ start, end: nextMidnight(start), weekend: isWeekend(start) });
  }
  return rows;
}

/** A period cut into pieces that each stay within one local day; an open period ends now. */
export function splitAtMidnight(period: Period, now: Date): { start: Date; end: Date }[] {
  const end = period.end ?? now;
  const pieces: { start: Date; end: Date }[] = [];
  let from = period.start;
  while (from < end) {
    const midnight = nextMidnight(from);
    const to = midnight < end ? midnight : end;
    pieces.push({ start: from, end: to });
    from = to;
  }
  return pieces;
}

/** The bars of each row (same order as `rows`), clipped to the rows' span. */
export function timelineBars(periods: Period[], rows: DayRow[], now: Date): DayBar[][] {
  const bars: DayBar[][] = rows.map(() => []);
  if (!rows.length) return bars;
  const first = rows[0]!.start;
  const last = rows[rows.length - 1]!.end;
  for (const period of periods) {
    const ongoing = period.end === null;
    const start = period.start < first ? first : period.start;
    const end = period.end && period.end < last ? period.end : period.end ? last : now < last ? now : last;
    for (const piece of splitAtMidnight({ start, end }, now)) {
      const index = rows.findIndex((r) => piece.start >= r.start && piece.start < r.end);
      if (index < 0) continue;
      const row = rows[index]!;
      const length = row.end.getTime() - row.start.getTime();
      bars[index]!.push({
        from: (piece.start.getTime() - row.start.getTime()) / length,
        to: (piece.end.getTime() - row.start.getTime()) / length,
        start: piece.start,
        end: piece.end,
        ongoing: ongoing && piece.end.getTime() === end.getTime(),
      });
    }
  }
  for (const row of bars) row.sort((a, b) => a.from - b.from);
  return bars;
}

/** Parses the API's entries; unreadable or inverted ones are dropped. */
export function toPeriods(entries: { start: string; end: string | null }[]): Period[] {
  const periods: Period[] = [];
  for (const e of entries) {
    const start = new Date(e.start);
    const end = e.end === null ? null : new Date(e.end);
    if (Number.isNaN(start.getTime()) || (end && (Number.isNaN(end.getTime()) || end < start))) continue;
    periods.push({ start, end });
  }
  return periods;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** HH:MM, local time. */
export const formatHourMinute = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;

/** The row label, e.g. 'Sat 21 Nov'. */
export function dayLabel(d: Date): string {
  return d.toLocaleDateString('en-GB', { weekday: 'short', day: '2-digit', month: 'short' });
}
