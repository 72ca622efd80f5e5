/** Units of the summary cards (SPEC §9): sizes in base 1024, percentages used over total, 0 decimals. */

export { formatBytes } from '@fleetlink/contract';

/** Used over total as a whole percentage; undefined when it cannot be computed. */
export function usedPercent(total: number | undefined, free: number | undefined): number | undefined {
  if (total === undefined || free === undefined || !(total > 0) || free < 0) return undefined;
  return Math.round(((total - Math.min(free, total)) / total) * 100);
}

/** A numeric agent property, or undefined when absent or not a number. */
export function numberProperty(properties: Record<string, string> | null, key: string): number | undefined {
  const raw = properties?.[key];
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  return Number.isFinite(n) ? n : undefined;
}
