/**
 * When each Node.js release line stops getting security fixes (nodejs.org's release schedule). The
 * agent reports its runtime's version (`java.version`); devices keep their Node longer than servers
 * do, so the Summary says when a device's Node is past this date. The agent runs on 20.19 and
 * newer only; a line newer than this table is taken as supported.
 */
const END_OF_LIFE: Readonly<Record<number, string>> = {
  20: '2026-04-30',
  21: '2024-06-01',
  22: '2027-04-30',
  23: '2025-06-01',
  24: '2028-04-30',
  25: '2026-06-01',
  26: '2029-04-30',
};

/** The day a Node.js version ("20.20.2" or "v20.20.2") reached its end of life, when it has; undefined while it is supported (or not a Node version). */
export function nodeEndOfLife(version: string | undefined, today: Date = new Date()): string | undefined {
  const major = Number(/^v?(\d+)\.\d+/.exec(version ?? '')?.[1]);
  if (!Number.isInteger(major)) return undefined;
  const day = END_OF_LIFE[major];
  return day !== undefined && today.toISOString().slice(0, 10) >= day ? day : undefined;
}
