import type { BlobStore } from './blobs/blob-store.js';
import type { TransfersRepository } from './transfers.repository.js';

/** Nothing a transfer needs lives this long: a blob older than this was left by a console that stopped mid-way. */
const ABANDONED_MS = 24 * 60 * 60_000;

/**
 * Removes the blobs nobody will fetch (issue 27 item 3): those whose URL expired unused, and
 * whatever a stopped console left behind, in the database or only in the store. (Run on a timer by
 * one console at a time: a PeriodicTask.)
 */
export class BlobSweeper {
  constructor(private readonly deps: { repo: TransfersRepository; blobs: BlobStore; log: { info(o: object, m: string): void } }) {}

  /** One sweep as of `now`; answers how many blobs went. */
  async sweep(now = new Date()): Promise<number> {
    const abandonedBefore = new Date(now.getTime() - ABANDONED_MS);
    let removed = 0;
    for (const id of await this.deps.repo.stale(now, abandonedBefore)) {
      await this.deps.blobs.remove(id);
      await this.deps.repo.removed(id, now);
      removed++;
    }
    removed += await this.deps.blobs.removeOlderThan(abandonedBefore);
    if (removed) this.deps.log.info({ removed }, 'blob sweep: stale blobs removed');
    return removed;
  }
}
