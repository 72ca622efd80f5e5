/**
 * `work` on every item, `size` at a time: enough at once to keep the disk (or the broker) busy, few
 * enough that a folder of 100,000 entries neither opens 100,000 files at once nor starves the agent's
 * connection, and that a rollout wave of 10,000 devices is not 10,000 requests at once.
 */
export async function inBatches<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  return out;
}
