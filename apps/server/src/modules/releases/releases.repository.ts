import { AgentProperty, type Bundle, type DeviceBranch, type Release, type ReleaseBranch } from '@fleetlink/contract';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db, DbExecutor } from '../../db/client.js';
import { bundles, devices, releaseBundles, releases } from '../../db/schema/index.js';

export interface BundleRecord extends Omit<Bundle, 'uploadedAt'> {
  id: string;
  uploadedAt: Date;
}

const bundleColumns = { id: bundles.id, name: bundles.name, version: bundles.version, sha256: bundles.sha256, size: bundles.size, uploadedAt: bundles.uploadedAt };

/** A release with its bundles, as one row: the bundles as a JSON list. */
export interface ReleaseRecord extends Omit<Release, 'createdAt' | 'bundles' | 'devices' | 'rollout'> {
  id: string;
  createdAt: Date;
  bundles: { name: string; version: string; sha256: string; size: number }[];
}

/** A device's branch and what its agent reported of its code (SPEC §3 properties). */
export interface DeviceAgent {
  branch: DeviceBranch;
  bundleVersion: string | null;
  updateVersion: string | null;
  updateStatus: string | null;
}

/** The SQL of bundles and releases. Version order (semver) is the service's: SQL sorts text. */
export class ReleasesRepository {
  constructor(private readonly db: Db) {}

  /** All bundles, or the versions of one. */
  bundles(name?: string): Promise<BundleRecord[]> {
    const query = this.db.select(bundleColumns).from(bundles);
    return name === undefined ? query : query.where(eq(bundles.name, name));
  }

  async bundle(name: string, version: string): Promise<BundleRecord | undefined> {
    const [row] = await this.db
      .select(bundleColumns)
      .from(bundles)
      .where(and(eq(bundles.name, name), eq(bundles.version, version)));
    return row;
  }

  async insertBundle(row: { id: string; name: string; version: string; sha256: string; size: number }): Promise<BundleRecord> {
    const [inserted] = await this.db.insert(bundles).values(row).returning(bundleColumns);
    return inserted!;
  }

  /** Fails with a foreign key violation while a release holds the bundle. */
  async deleteBundle(id: string): Promise<void> {
    await this.db.delete(bundles).where(eq(bundles.id, id));
  }

  /** The releases holding a bundle, as 'BRANCH version'. */
  async releasesWith(bundleId: string): Promise<string[]> {
    const rows = await this.db
      .select({ id: releases.id, branch: releases.branch, version: releases.version })
      .from(releaseBundles)
      .innerJoin(releases, eq(releases.id, releaseBundles.releaseId))
      .where(eq(releaseBundles.bundleId, bundleId));
    return rows.map((r) => `${r.branch} ${r.version}`);
  }

  /** Releases of the given branches (all when none are given), each with its bundles. */
  async releases(branches?: readonly ReleaseBranch[]): Promise<ReleaseRecord[]> {
    const list = sql<ReleaseRecord['bundles']>`coalesce((
      select json_agg(json_build_object('name', b.name, 'version', b.version, 'sha256', b.sha256, 'size', b.size) order by b.name)
      from ${releaseBundles} rb join ${bundles} b on b.id = rb.bundle_id
      where rb.release_id = "releases"."id"), '[]'::json)`;
    const query = this.db
      .select({ id: releases.id, branch: releases.branch, version: releases.version, notes: releases.notes, builtIn: releases.builtIn, createdAt: releases.createdAt, bundles: list })
      .from(releases);
    return branches ? query.where(inArray(releases.branch, [...branches])) : query;
  }

  /** A release and its bundles in one transaction; answers when it was created, or throws the unique violation when it exists. */
  /** `also` runs in the same transaction with the new release's id (its staged rollout). */
  async insertRelease(
    release: { branch: ReleaseBranch; version: string; notes: string | null; builtIn?: boolean },
    bundleIds: string[],
    also?: (tx: DbExecutor, releaseId: string) => Promise<unknown>,
  ): Promise<{ id: string; createdAt: Date }> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.insert(releases).values(release).returning({ id: releases.id, createdAt: releases.createdAt });
      await tx.insert(releaseBundles).values(bundleIds.map((bundleId) => ({ releaseId: row!.id, bundleId })));
      await also?.(tx, row!.id);
      return row!;
    });
  }

  /** One release, by its name (branch and version). */
  async release(branch: ReleaseBranch, version: string): Promise<ReleaseRecord | undefined> {
    const rows = await this.releases([branch]);
    return rows.find((r) => r.version === version);
  }

  /** The device's branch, which picks its release; undefined when there is no such device. */
  async deviceBranch(deviceId: string): Promise<DeviceBranch | undefined> {
    return (await this.device(deviceId))?.branch;
  }

  /** The device's branch and the agent bundle it reported running (a staged rollout keeps offering a release to a device that took it). */
  async device(deviceId: string): Promise<{ id: string; branch: DeviceBranch; bundleVersion: string | null } | undefined> {
    const [row] = await this.db
      .select({ id: devices.id, branch: devices.branch, bundleVersion: sql<string | null>`${devices.properties} ->> ${AgentProperty.BundleVersion}` })
      .from(devices)
      .where(eq(devices.id, deviceId));
    return row;
  }

  /** What every device whose agent has reported says of its code: the releases page counts them. */
  async deviceAgents(): Promise<DeviceAgent[]> {
    const prop = (key: string) => sql<string | null>`${devices.properties} ->> ${key}`;
    return this.db
      .select({
        branch: devices.branch,
        bundleVersion: prop(AgentProperty.BundleVersion),
        updateVersion: prop(AgentProperty.UpdateBundleVersion),
        updateStatus: prop(AgentProperty.UpdateStatus),
      })
      .from(devices)
      .where(isNotNull(devices.properties));
  }

  /** Answers whether there was such a release. */
  async deleteRelease(branch: ReleaseBranch, version: string): Promise<boolean> {
    const rows = await this.db
      .delete(releases)
      .where(and(eq(releases.branch, branch), eq(releases.version, version)))
      .returning({ id: releases.id });
    return rows.length > 0;
  }
}
