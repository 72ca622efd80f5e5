import { lstat, opendir } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { inBatches } from '@fleetlink/contract/in-batches';

/** Entries looked at together: enough to keep the disk busy, few enough to leave the agent responsive. */
const STATS_AT_ONCE = 64;

export interface Child {
  p: string;
  stats: Stats;
}

/**
 * The entries of one folder with their own stats (links not followed), for the walks that measure
 * a tree (drive scan, monitors); undefined when the folder cannot be read. An entry gone since the
 * folder was read is left out.
 */
export async function folderChildren(folder: string): Promise<Child[] | undefined> {
  const names: string[] = [];
  try {
    const dir = await opendir(folder, { bufferSize: 256 });
    for await (const d of dir) names.push(d.name);
  } catch {
    return undefined;
  }
  const found = await inBatches(names, STATS_AT_ONCE, (n) => {
    const p = path.join(folder, n);
    return lstat(p).then((stats) => ({ p, stats }), () => undefined);
  });
  return found.filter((entry) => entry !== undefined);
}
