const DAY_MS = 86_400_000;

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * Epoch milliseconds as ISO strings, exactly as Date#toISOString writes them, at a fraction of its
 * cost for a series: the date part is made once per day the series crosses, the time of day by
 * arithmetic. A day of load samples (288) took 130 µs with toISOString, a tenth of a metrics
 * answer's time in the console (issue 69).
 */
export function isoTimes(times: readonly number[]): string[] {
  let dayStart = Number.NaN;
  let date = '';
  return times.map((t) => {
    if (!(t >= dayStart && t < dayStart + DAY_MS)) {
      dayStart = t - (((t % DAY_MS) + DAY_MS) % DAY_MS);
      date = new Date(dayStart).toISOString().slice(0, -13);
    }
    const inDay = t - dayStart;
    const ms = inDay % 1000;
    const seconds = (inDay - ms) / 1000;
    return `${date}${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor(seconds / 60) % 60)}:${pad2(seconds % 60)}.${pad3(ms)}Z`;
  });
}
