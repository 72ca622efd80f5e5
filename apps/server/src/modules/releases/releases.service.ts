import { basicCredentials } from '@fleetlink/contract/basic-credentials';
import type { Readable } from 'node:stream';
import { AuditKind, ErrorCode, releaseBranchesFor, type AgentRelease, type Release, type ReleaseBranch, type ReleaseForm } from '@fleetlink/contract';
import { rcompare } from 'semver';
import type { Principal } from '../../auth/principal.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/app-error.js';
import type { Actor, AuditTrail } from '../audit/audit-trail.js';
import type { DeviceCredentials } from '../enrollment/credentials.js';
import type { BlobStore } from '../transfers/blobs/blob-store.js';
import { releaseStandings } from './release-standing.js';
import { isForeignKeyViolation, isUniqueViolation } from '../organizations/unique-violation.js';
import type { DbExecutor } from '../../db/client.js';
import type { ReleaseRecord, ReleasesRepository } from './releases.repository.js';
import type { RolloutRow, RolloutsRepository } from './rollouts.repository.js';
import type { RolloutsService } from './rollouts.service.js';

export interface ReleasesDeps {
  repo: ReleasesRepository;
  audit: AuditTrail;
  credentials: Pick<DeviceCredentials, 'verify'>;
  /** The bundle store, which agents download their bundles from. */
  store: BlobStore;
  /** Staged rollouts (issue 65): which devices a release is offered to while one is under way. */
  rollouts: RolloutsService;
  rolloutsRepo: RolloutsRepository;
  log?: { info(o: object, m: string): void };
}

export const BUILT_IN_RELEASE_NOTES = 'The agent this console was built with, registered at its first start. A release of your own takes over from it.';

/** Newest version first (semver: 1.10.0 after 1.9.0, 2.0.0-rc.1 before 2.0.0); a tie goes to the later one. */
export const newestFirst = (a: ReleaseRecord, b: ReleaseRecord) => rcompare(a.version, b.version) || b.createdAt.getTime() - a.createdAt.getTime();

/**
 * Which release a device takes, first first: an operator's own releases before the built-in one
 * (issue 59), whatever their versions; then the newest.
 */
export const byPrecedence = (a: ReleaseRecord, b: ReleaseRecord) => Number(a.builtIn) - Number(b.builtIn) || newestFirst(a, b);

const toRelease = (r: ReleaseRecord): Release => ({
  branch: r.branch,
  version: r.version,
  notes: r.notes,
  bundles: r.bundles.map(({ name, version }) => ({ name, version })),
  createdAt: r.createdAt.toISOString(),
  builtIn: r.builtIn,
});

/**
 * Releases (issue 31): bundle versions bound to a release branch. Devices take the newest release,
 * in semver order, of the release branches their own branch follows (contract `releaseBranchesFor`).
 */
export class ReleasesService {
  constructor(private readonly deps: ReleasesDeps) {}

  /** All releases, newest version first (SPEC hint: releases are sorted by version), each with where it stands on devices. */
  async list(): Promise<Release[]> {
    const [records, devices] = await Promise.all([this.deps.repo.releases(), this.deps.repo.deviceAgents()]);
    // Where each stands follows which one devices take; the list shows them by version.
    const taken = [...records].sort(byPrecedence);
    const standings = new Map(releaseStandings(taken, devices).map((s, i) => [taken[i]!, s]));
    const rollouts = await this.deps.rollouts.standings(records);
    return records.sort(newestFirst).map((r) => ({ ...toRelease(r), devices: standings.get(r), rollout: rollouts.get(r.id) ?? null }));
  }

  /** A release by its name, or a 404 saying which there is not. */
  async release(branch: ReleaseBranch, version: string): Promise<ReleaseRecord> {
    const release = await this.deps.repo.release(branch, version);
    if (!release) throw notFound(`There is no release ${branch} ${version}.`);
    return release;
  }

  /** A release, and its rollout when it goes in waves (all at once by default, as SPEC §2's form). */
  async create(p: Principal, form: ReleaseForm): Promise<Release> {
    const waves = form.rollout?.mode === 'waves' ? form.rollout : undefined;
    if (!waves) return this.insert(p, form, false);
    // The release and its rollout are made in one transaction: no agent sees it without its waves.
    const start = await this.deps.rollouts.plan(p, form.branch, waves);
    let releaseId = '';
    const created = await this.deps.rollouts.audited(p, form, waves, () =>
      this.insert(p, form, false, (tx, id) => {
        releaseId = id;
        return start(tx, id);
      }),
    );
    await this.deps.rollouts.started(releaseId);
    return created;
  }

  /**
   * The built-in release (issue 59): the bundle of the agent this console was built with, on
   * PRODUCTION (which every branch follows) under the bundle's version, so that a console with no
   * release of its own yet still offers the Install page's downloads.
   */
  async createBuiltIn(actor: Actor, bundle: { name: string; version: string }): Promise<Release> {
    return this.insert(actor, { branch: 'PRODUCTION', version: bundle.version, notes: BUILT_IN_RELEASE_NOTES, bundles: [bundle] }, true);
  }

  private async insert(actor: Actor, form: ReleaseForm, builtIn: boolean, also?: (tx: DbExecutor, releaseId: string) => Promise<unknown>): Promise<Release> {
    const details = { branch: form.branch, version: form.version, bundles: form.bundles, ...(builtIn ? { builtIn } : {}) };
    return this.deps.audit.track(actor, { kind: AuditKind.ReleaseCreate, details }, async () => {
      const ids: string[] = [];
      for (const [i, row] of form.bundles.entries()) {
        const bundle = await this.deps.repo.bundle(row.name, row.version);
        if (!bundle) throw badRequest(`There is no bundle ${row.name} ${row.version}.`, { [`bundles.${i}.version`]: `There is no bundle ${row.name} ${row.version}.` });
        ids.push(bundle.id);
      }
      const release = { branch: form.branch, version: form.version, notes: form.notes || null };
      try {
        const { createdAt } = await this.deps.repo.insertRelease({ ...release, builtIn }, ids, also);
        return { ...release, bundles: form.bundles, createdAt: createdAt.toISOString(), builtIn };
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`Release ${form.branch} ${form.version} exists already.`);
        // A bundle deleted since it was looked up above.
        if (isForeignKeyViolation(err)) throw conflict('A bundle of this release was just deleted: choose the bundles again.');
        throw err;
      }
    });
  }

  async delete(p: Principal, branch: ReleaseBranch, version: string): Promise<void> {
    await this.deps.audit.track(p, { kind: AuditKind.ReleaseDelete, details: { branch, version } }, async () => {
      if (!(await this.deps.repo.deleteRelease(branch, version))) throw notFound(`There is no release ${branch} ${version}.`);
    });
  }

  /**
   * `GET /api/agent/release`: the release the calling device should run, the newest of the branches
   * its branch follows; `null` while there is none. The device signs in with its own MQTT account
   * (HTTP Basic), so it can learn only its own.
   */
  async forAgent(authorization: string | undefined): Promise<AgentRelease> {
    const { device, releases, all, held } = await this.releasesOf(authorization, 'asks for its release');
    const taken = releases.sort(byPrecedence)[0];
    if (taken) await this.deps.rolloutsRepo.offered(taken.id, device.id);
    // The release that would come first, when a rollout holds it back: the device says which wave it waits for.
    const top = all.sort(byPrecedence)[0];
    const first = held.find((h) => h.release === top);
    const waiting = first && { branch: first.release.branch, version: first.release.version, wave: first.wave, started: first.rollout.wave, state: first.rollout.state };
    return { release: taken ? { branch: taken.branch, version: taken.version, bundles: taken.bundles } : null, ...(waiting ? { waiting } : {}) };
  }

  /**
   * `GET /api/agent/bundle/{name}/{version}`: a bundle's bytes, for a device whose branch follows a
   * release that holds it (not only the newest: a device may be sent back to an older one).
   */
  async bundleForAgent(authorization: string | undefined, name: string, version: string): Promise<{ stream: Readable; size: number }> {
    const { device, releases } = await this.releasesOf(authorization, 'downloads its bundle');
    const holding = releases.filter((r) => r.bundles.some((b) => b.name === name && b.version === version));
    if (!holding.length) throw notFound(`No release this device is offered holds the bundle ${name} ${version}.`);
    const bundle = await this.deps.repo.bundle(name, version);
    const blob = bundle && (await this.deps.store.read(bundle.id));
    if (!bundle || !blob) throw notFound(`The bundle ${name} ${version} was just deleted.`);
    // The download log: who took which code, for the rollouts that hold it too.
    this.deps.log?.info({ device: device.id, bundle: name, version }, 'an agent downloads its bundle');
    await this.deps.rolloutsRepo.downloaded(holding.map((r) => r.id), device.id);
    return { stream: blob.stream, size: bundle.size };
  }

  /**
   * The releases offered to the calling device: those of the branches it follows, less those a staged
   * rollout holds back from it (issue 65). The device signs in with its own MQTT account (HTTP Basic).
   */
  private async releasesOf(authorization: string | undefined, what: string) {
    const auth = basicCredentials(authorization);
    const deviceId = auth && (await this.deps.credentials.verify(auth.username, auth.password));
    if (!deviceId) throw new AppError(401, ErrorCode.Unauthenticated, `An agent ${what} with its device's account (HTTP Basic).`);
    const device = await this.deps.repo.device(deviceId);
    if (!device) throw notFound('The device was deleted.');
    const all = await this.deps.repo.releases(releaseBranchesFor[device.branch]);
    const rollouts = new Map((await this.deps.rolloutsRepo.rollouts(all.map((r) => r.id))).map((r) => [r.releaseId, r]));
    const offered: ReleaseRecord[] = [];
    const held: { release: ReleaseRecord; rollout: RolloutRow; wave: number }[] = [];
    for (const release of all) {
      const rollout = rollouts.get(release.id);
      const offer = await this.deps.rollouts.offer(release, rollout, device);
      if (offer.offered) offered.push(release);
      else if (offer.waitsFor !== undefined) held.push({ release, rollout: rollout!, wave: offer.waitsFor });
    }
    return { device, releases: offered, all, held };
  }
}
