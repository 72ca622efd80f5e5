import { AuditKind } from '@fleetlink/contract';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { LiveChanges } from '../live/live-bus.js';
import type { ReleaseRecord, ReleasesRepository } from './releases.repository.js';
import type { RolloutRow, RolloutsRepository, WaveCount } from './rollouts.repository.js';
import { failedIn, sizeOf, targetOf, waveEndsAt } from './rollouts.service.js';

const ROLLED_BACK = 'rolled back: ';

/**
 * Moves staged rollouts on (issue 65), one round per tick on one console at a time (a PeriodicTask:
 * its advisory lock is the lease; each move is also conditional on the state and wave it read, so a
 * person's Pause at the same moment wins or loses whole). Each round, for each running rollout: reads
 * again how the started waves' devices fare, halts it when a wave crossed its failure threshold,
 * otherwise starts the next wave once the current one stayed healthy for its wait (the last one's
 * wait ends it: done). Everything it goes by is in the database, so a console restarted mid-wait
 * goes on where it was.
 */
export class RolloutRunner {
  constructor(
    private readonly o: {
      repo: RolloutsRepository;
      releases: ReleasesRepository;
      audit: AuditTrail;
      live: Pick<LiveChanges, 'releases'>;
      nudge: (deviceIds: string[]) => void;
      /** How long a device that started updating may take to come back on the new bundle. */
      deadlineMinutes: number;
      now?: () => Date;
    },
  ) {}

  async tick(): Promise<void> {
    const running = await this.o.repo.running();
    if (!running.length) return;
    const releases = new Map((await this.o.releases.releases()).map((r) => [r.id, r]));
    let changed = false;
    for (const row of running) {
      const release = releases.get(row.releaseId);
      if (release) changed = (await this.evaluate(row, release)) || changed;
    }
    if (changed) this.o.live.releases();
  }

  /** Answers whether its devices' counts changed (a move tells the pages by its audit entry). */
  private async evaluate(row: RolloutRow, release: ReleaseRecord): Promise<boolean> {
    const { repo } = this.o;
    const changed = (await repo.refresh(release.id, targetOf(release), row.wave, this.o.deadlineMinutes)) > 0;
    const counts = (await repo.counts([release])).get(release.id) ?? [];
    for (let wave = 1; wave <= row.wave; wave++) {
      if (this.crossed(row, counts, wave)) {
        await this.halt(row, release, counts, wave);
        return changed;
      }
    }
    const due = waveEndsAt(row);
    if (!due || due > this.now()) {
      // Devices of the started waves that came online since are asked to check now.
      this.o.nudge(await repo.toNudge(release.id, row.wave));
      return changed;
    }
    const actor = { username: row.createdBy, subject: row.createdBySubject };
    const details = { branch: release.branch, version: release.version };
    if (row.wave >= row.waves.length) {
      // The last wave stayed healthy for its wait: the rollout is done, and the release is everyone's.
      await repo.move(release.id, ['RUNNING'], { state: 'DONE', reason: null }, row.wave);
      this.o.live.releases();
      return changed;
    }
    const wave = row.wave + 1;
    const moved = await repo.move(release.id, ['RUNNING'], { wave, waveStartedAt: this.now() }, row.wave);
    if (!moved) return changed;
    await this.o.audit.record(actor, { kind: AuditKind.RolloutWave, details: { ...details, wave, devices: sizeOf(counts, wave) } }, { error: null });
    this.o.nudge(await repo.toNudge(release.id, wave));
    return changed;
  }

  /** More than the threshold's share of the wave, or its count of devices, failed since it was last resumed. */
  private crossed(row: RolloutRow, counts: WaveCount[], wave: number): boolean {
    const failed = failedIn(counts, wave) - (row.accepted[wave - 1] ?? 0);
    if (failed <= 0) return false;
    return failed * 100 > row.failurePercent * sizeOf(counts, wave) || (row.failureCount !== null && failed >= row.failureCount);
  }

  private async halt(row: RolloutRow, release: ReleaseRecord, counts: WaveCount[], wave: number) {
    const failed = failedIn(counts, wave);
    const size = sizeOf(counts, wave);
    const failures = await this.o.repo.failures(release.id, wave, 50);
    const rolledBack = failures.length > 0 && failures.every((f) => f.reason?.startsWith(ROLLED_BACK));
    const first = failures[0];
    const why = first ? `: ${first.name}: ${(first.reason ?? 'failed').replace(ROLLED_BACK, '')}` : '.';
    const reason = `Halted: ${failed} of ${size} devices in wave ${wave} ${rolledBack ? 'rolled back' : 'failed'}${why}`;
    const moved = await this.o.repo.move(release.id, ['RUNNING'], { state: 'HALTED', reason }, row.wave);
    if (!moved) return;
    await this.o.audit.record(
      { username: row.createdBy, subject: row.createdBySubject },
      { kind: AuditKind.RolloutHalt, details: { branch: release.branch, version: release.version, wave, failed, devices: size, reason } },
      { error: reason },
    );
  }

  private now() {
    return this.o.now?.() ?? new Date();
  }
}
