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
import type { ReleaseRecord, ReleasesRepository } from './releases.repository.js';

export interface ReleasesDeps {
  repo: ReleasesRepository;
  audit: AuditTrail;
  credentials: Pick<DeviceCredentials, 'verify'>;
  /** The bundle store, which agents download their bundles from. */
  store: BlobStore;
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
    return records.sort(newestFirst).map((r) => ({ ...toRelease(r), devices: standings.get(r) }));
  }

  async create(p: Principal, form: ReleaseForm): Promise<Release> {
    return this.insert(p, form, false);
  }

  /**
   * The built-in release (issue 59): the bundle of the agent this console was built with, on
   * PRODUCTION (which every branch follows) under the bundle's version, so that a console with no
   * release of its own yet still offers the Install page's downloads.
   */
  async createBuiltIn(actor: Actor, bundle: { name: string; version: string }): Promise<Release> {
    return this.insert(actor, { branch: 'PRODUCTION', version: bundle.version, notes: BUILT_IN_RELEASE_NOTES, bundles: [bundle] }, true);
  }

  private async insert(actor: Actor, form: ReleaseForm, builtIn: boolean): Promise<Release> {
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
        const createdAt = await this.deps.repo.insertRelease({ ...release, builtIn }, ids);
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
    const [taken] = (await this.releasesOf(authorization, 'asks for its release')).sort(byPrecedence);
    return { release: taken ? { branch: taken.branch, version: taken.version, bundles: taken.bundles } : null };
  }

  /**
   * `GET /api/agent/bundle/{name}/{version}`: a bundle's bytes, for a device whose branch follows a
   * release that holds it (not only the newest: a device may be sent back to an older one).
   */
  async bundleForAgent(authorization: string | undefined, name: string, version: string): Promise<{ stream: Readable; size: number }> {
    const releases = await this.releasesOf(authorization, 'downloads its bundle');
    if (!releases.some((r) => r.bundles.some((b) => b.name === name && b.version === version))) {
      throw notFound(`No release of this device's branch holds the bundle ${name} ${version}.`);
    }
    const bundle = await this.deps.repo.bundle(name, version);
    const blob = bundle && (await this.deps.store.read(bundle.id));
    if (!bundle || !blob) throw notFound(`The bundle ${name} ${version} was just deleted.`);
    return { stream: blob.stream, size: bundle.size };
  }

  /** The releases of the branches the calling device follows; the device signs in with its own MQTT account (HTTP Basic). */
  private async releasesOf(authorization: string | undefined, what: string): Promise<ReleaseRecord[]> {
    const auth = basicCredentials(authorization);
    const deviceId = auth && (await this.deps.credentials.verify(auth.username, auth.password));
    if (!deviceId) throw new AppError(401, ErrorCode.Unauthenticated, `An agent ${what} with its device's account (HTTP Basic).`);
    const branch = await this.deps.repo.deviceBranch(deviceId);
    if (!branch) throw notFound('The device was deleted.');
    return this.deps.repo.releases(releaseBranchesFor[branch]);
  }
}
