/** Sizes as people read them (SPEC §9): base 1024, as on the summary cards and in the console's messages. */

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB', 'PB'];

export function formatBytes(value: number | undefined | null): string {
  if (value === undefined || value === null || !Number.isFinite(value) || value < 0) return '-';
  let n = value;
  let unit = 0;
  while (n >= 1024 && unit < UNITS.length - 1) {
    n /= 1024;
    unit++;
  }
  return unit === 0 ? `${n} byte${n === 1 ? '' : 's'}` : `${n.toFixed(n >= 100 ? 0 : 1)} ${UNITS[unit]}`;
}
