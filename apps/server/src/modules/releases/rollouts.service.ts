import {
  agentBundleOf,
  AuditKind,
  deviceBranchesFollowing,
  ROLLOUT_UNDER_WAY,
  rolloutActionFrom,
  type ReleaseBranch,
  type Rollout,
  type RolloutAction,
  type RolloutForm,
  type RolloutState,
} from '@fleetlink/contract';
import type { DbExecutor } from '../../db/client.js';
import { conflict } from '../../lib/app-error.js';
import type { Actor, AuditTrail } from '../audit/audit-trail.js';
import type { ReleaseRecord } from './releases.repository.js';
import { deviceHash, waveBoundaries, waveOf } from './rollout-waves.js';
import type { RolloutRow, RolloutsRepository, WaveCount } from './rollouts.repository.js';

export interface RolloutsDeps {
  repo: RolloutsRepository;
  audit: AuditTrail;
  /** Asks online devices to check their release now (the agent's `update` command), in the background. */
  nudge: (deviceIds: string[]) => void;
}

/** What a device is, for the offer: its agent bundle decides whether it took a release already. */
export interface OfferedDevice {
  id: string;
  bundleVersion: string | null;
}

/** Whether a release is offered to a device now; when a rollout under way holds it back, the device's wave. */
export type Offer = { offered: true } | { offered: false; waitsFor?: number };

const who = (actor: Actor) => actor.username ?? 'the console';
const nameOf = (r: ReleaseRecord) => `${r.branch} ${r.version}`;

/** The agent bundle version a device runs once it took the release (none for a release without one). */
export const targetOf = (r: ReleaseRecord): string | null => agentBundleOf(r.bundles)?.version ?? null;

/**
 * Staged rollouts (issue 65): what a person does to one (set its waves, pause, resume, abort, roll
 * back), and which devices a release is offered to while one is under way. Waves move on by
 * themselves in RolloutRunner.
 */
export class RolloutsService {
  constructor(private readonly deps: RolloutsDeps) {}

  /**
   * Waves: the release's devices are put in their waves now and the first wave starts; all at once:
   * the release reaches every device of its branches (any rollout it had ends). Waves over a rollout
   * still under way are refused: it is aborted first, so no device changes wave unseen.
   */
  async set(actor: Actor, release: ReleaseRecord, form: RolloutForm): Promise<void> {
    await this.audited(actor, release, form, async () => {
      const current = await this.deps.repo.rollout(release.id);
      if (form.mode === 'all') return void (await this.deps.repo.remove(release.id));
      if (current && ROLLOUT_UNDER_WAY.includes(current.state)) {
        throw conflict(`The rollout of ${nameOf(release)} is under way (${current.state.toLowerCase()}): abort it before giving it new waves.`);
      }
      const start = await this.plan(actor, release.branch, form);
      await start(undefined, release.id);
    });
    if (form.mode === 'waves') await this.started(release.id);
  }

  /**
   * Waves for a release about to be made: answers what starts its rollout inside the transaction that
   * makes the release (ReleasesRepository.insertRelease), decided on the devices there are now.
   */
  async plan(actor: Actor, branch: ReleaseBranch, form: RolloutForm): Promise<(tx: DbExecutor | undefined, releaseId: string) => Promise<unknown>> {
    const ids = await this.deps.repo.deviceIds(deviceBranchesFollowing(branch));
    const boundaries = waveBoundaries(ids.map(deviceHash), form.waves);
    const members = ids.map((deviceId) => ({ deviceId, wave: waveOf(deviceHash(deviceId), boundaries) }));
    return (tx, releaseId) =>
      this.deps.repo.start(
        {
          releaseId,
          state: 'RUNNING',
          waves: form.waves,
          boundaries,
          waitMinutes: form.waitMinutes,
          failurePercent: form.failurePercent,
          failureCount: form.failureCount,
          wave: 1,
          waveStartedAt: new Date(),
          accepted: form.waves.map(() => 0),
          reason: null,
          createdBy: who(actor),
          createdBySubject: actor.subject,
        },
        members,
        tx,
      );
  }

  /** The audit entry of a rollout set, on a release being made or made already. */
  audited<T>(actor: Actor, release: { branch: ReleaseBranch; version: string }, form: RolloutForm, work: () => Promise<T>): Promise<T> {
    const details = { branch: release.branch, version: release.version, ...form, ...(form.mode === 'all' ? { waves: undefined } : {}) };
    return this.deps.audit.track(actor, { kind: AuditKind.RolloutSet, details }, work);
  }

  /** A rollout just started: its first wave's online devices are asked to check now. */
  async started(releaseId: string): Promise<void> {
    this.deps.nudge(await this.deps.repo.toNudge(releaseId, 1));
  }

  /** Pause, Resume, Abort, Roll back: each from the states `rolloutActionFrom` allows, else a 409 saying why. */
  async act(actor: Actor, release: ReleaseRecord, action: RolloutAction): Promise<void> {
    const kind = { pause: AuditKind.RolloutPause, resume: AuditKind.RolloutResume, abort: AuditKind.RolloutAbort, rollback: AuditKind.RolloutRollback }[action];
    await this.deps.audit.track(actor, { kind, details: { branch: release.branch, version: release.version } }, async () => {
      const current = await this.deps.repo.rollout(release.id);
      const from = rolloutActionFrom[action];
      if (!from.includes(current?.state ?? null)) throw conflict(refusal(action, release, current?.state ?? null));
      const moved = await this.move(actor, release, current, action);
      if (!moved) throw conflict(`The rollout of ${nameOf(release)} changed meanwhile: read the page again.`);
    });
    if (action === 'resume') {
      await this.deps.repo.forgetNudges(release.id);
      const row = await this.deps.repo.rollout(release.id);
      if (row) this.deps.nudge(await this.deps.repo.toNudge(release.id, row.wave));
    }
    if (action === 'rollback') {
      const target = targetOf(release);
      if (target) this.deps.nudge(await this.deps.repo.runningOnline(deviceBranchesFollowing(release.branch), target));
    }
  }

  private async move(actor: Actor, release: ReleaseRecord, current: RolloutRow | undefined, action: RolloutAction): Promise<RolloutRow | undefined> {
    const { repo } = this.deps;
    const from = rolloutActionFrom[action].filter((s): s is RolloutState => s !== null);
    switch (action) {
      case 'pause':
        return repo.move(release.id, from, { state: 'PAUSED', reason: `Paused by ${who(actor)}.` });
      case 'resume': {
        // The failures that halted it are accepted: only new ones count toward the threshold.
        const counts = (await repo.counts([release])).get(release.id) ?? [];
        const accepted = current!.waves.map((_, i) => failedIn(counts, i + 1));
        return repo.move(release.id, from, { state: 'RUNNING', reason: null, waveStartedAt: new Date(), accepted });
      }
      case 'abort':
        return repo.move(release.id, from, { state: 'ABORTED', reason: `Aborted by ${who(actor)}: devices that took it keep it, the others keep their release.` });
      case 'rollback': {
        const reason = `Rolled back by ${who(actor)}: devices that took it are offered the release before it again.`;
        if (current) return repo.move(release.id, from, { state: 'ROLLED_BACK', reason });
        // A release that reached every device at once: a rollout row of no waves records that it is rolled back.
        return repo.start(
          { releaseId: release.id, state: 'ROLLED_BACK', waves: [], boundaries: [], waitMinutes: 0, failurePercent: 0, failureCount: null, wave: 0, accepted: [], reason, createdBy: who(actor), createdBySubject: actor.subject },
          [],
        );
      }
    }
  }

  /**
   * Whether `release` is offered to `device` now: always without a rollout or once it is done; never
   * once rolled back or aborted, except to a device that runs its agent bundle already (it keeps it,
   * whatever else happens); while running, to a device whose wave started (one that appeared since the
   * start joins its wave first). Held back by a rollout under way, the answer says which wave the
   * device waits for.
   */
  async offer(release: ReleaseRecord, rollout: RolloutRow | undefined, device: OfferedDevice): Promise<Offer> {
    if (!rollout || rollout.state === 'DONE') return { offered: true };
    if (rollout.state === 'ROLLED_BACK') return { offered: false };
    const target = targetOf(release);
    if (target && device.bundleVersion === target) return { offered: true };
    if (!ROLLOUT_UNDER_WAY.includes(rollout.state)) return { offered: false };
    let member = await this.deps.repo.member(release.id, device.id);
    if (!member) {
      member = { wave: waveOf(deviceHash(device.id), rollout.boundaries) };
      // Decided once: a device seen by a running rollout keeps the wave it is told now.
      if (rollout.state === 'RUNNING') await this.deps.repo.join(release.id, device.id, member.wave);
    }
    return rollout.state === 'RUNNING' && member.wave <= rollout.wave ? { offered: true } : { offered: false, waitsFor: member.wave };
  }

  /** The rollouts of these releases, by release id, as the releases page shows them. */
  async standings(releases: ReleaseRecord[]): Promise<Map<string, Rollout>> {
    const rows = await this.deps.repo.rollouts(releases.map((r) => r.id));
    const withRollout = new Set(rows.map((r) => r.releaseId));
    const counts = await this.deps.repo.counts(releases.filter((r) => withRollout.has(r.id)));
    return new Map(rows.map((row) => [row.releaseId, rolloutOf(row, counts.get(row.releaseId) ?? [])]));
  }

  /** One wave's devices, for the wave's list. */
  async wave(release: ReleaseRecord, wave: number, limit: number) {
    const [{ rows, total }, rollout] = await Promise.all([this.deps.repo.wave(release.id, wave, limit), this.deps.repo.rollout(release.id)]);
    // A wave not started yet: its devices keep their release and wait for it.
    const later = !rollout || wave > rollout.wave;
    return {
      devices: rows.map((r) => ({ ...r, reason: later ? `waiting for wave ${wave}` : r.reason, offeredAt: r.offeredAt?.toISOString() ?? null })),
      total,
    };
  }
}

export const failedIn = (counts: WaveCount[], wave: number) => counts.filter((c) => c.wave === wave && c.state === 'failed').reduce((n, c) => n + c.n, 0);
export const sizeOf = (counts: WaveCount[], wave: number) => counts.filter((c) => c.wave === wave).reduce((n, c) => n + c.n, 0);

/** When the current wave's wait ends (the last wave's ends the rollout); null for a rollout without waves. */
export const waveEndsAt = (row: RolloutRow): Date | null => (row.waveStartedAt ? new Date(row.waveStartedAt.getTime() + row.waitMinutes * 60_000) : null);

/** When the next wave starts if all stays healthy; null once none will start by itself. */
export const nextWaveAt = (row: RolloutRow): Date | null => (row.state === 'RUNNING' && row.wave < row.waves.length ? waveEndsAt(row) : null);

/** A rollout row and its devices' counts as the page shows it: waves not started yet count all their devices as waiting. */
export function rolloutOf(row: RolloutRow, counts: WaveCount[]): Rollout {
  return {
    state: row.state,
    wave: row.wave,
    nextWaveAt: nextWaveAt(row)?.toISOString() ?? null,
    waitMinutes: row.waitMinutes,
    failurePercent: row.failurePercent,
    failureCount: row.failureCount,
    reason: row.reason,
    updatedAt: row.updatedAt.toISOString(),
    waves: row.waves.map((w, i) => {
      const n = i + 1;
      const of = (state: WaveCount['state']) => counts.filter((c) => c.wave === n && c.state === state).reduce((sum, c) => sum + c.n, 0);
      const devices = sizeOf(counts, n);
      const started = n <= row.wave;
      return {
        ...w,
        devices,
        startedAt: started && n === row.wave ? (row.waveStartedAt?.toISOString() ?? null) : null,
        standing: started ? { running: of('running'), updating: of('updating'), failed: of('failed'), waiting: of('waiting') } : { running: 0, updating: 0, failed: 0, waiting: devices },
      };
    }),
  };
}

function refusal(action: RolloutAction, release: ReleaseRecord, state: RolloutState | null): string {
  const name = nameOf(release);
  const now = state ? `it is ${state.toLowerCase().replace('_', ' ')}` : 'it has no waves';
  switch (action) {
    case 'pause':
      return `Only a running rollout can be paused; the rollout of ${name}: ${now}.`;
    case 'resume':
      return `Only a paused or halted rollout can be resumed; the rollout of ${name}: ${now}.`;
    case 'abort':
      return `Only a rollout under way can be aborted; the rollout of ${name}: ${now}.`;
    case 'rollback':
      return `${name} is rolled back already.`;
  }
}
