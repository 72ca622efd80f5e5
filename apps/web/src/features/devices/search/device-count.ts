/**
 * A tab's count as shown: an estimate (issue 69: above 10,000 matches the console may estimate)
 * reads "about 330,000", an exact count as it is.
 */
export function shownCount(count: number, estimated: boolean | undefined): string {
  return estimated ? `about ${count.toLocaleString('en-US')}` : String(count);
}

/** The search box's line under its suggestions. */
export function devicesFound(count: number, estimated: boolean | undefined): string {
  if (estimated) return `${shownCount(count, true)} devices found`;
  return count === 1 ? '1 device found' : `${count} devices found`;
}
