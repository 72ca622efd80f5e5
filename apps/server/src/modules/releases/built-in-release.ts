import { execFile } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { AGENT_BUNDLE_NAME } from '@fleetlink/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { brokerSettings } from '../../db/schema/index.js';
import type { Actor } from '../audit/audit-trail.js';
import type { BundlesService } from './bundles.service.js';
import type { ReleasesRepository } from './releases.repository.js';
import type { ReleasesService } from './releases.service.js';

/**
 * Claimed by the first start that decides (registers the built-in release, or finds releases there
 * already): later starts, and a second console starting at the same moment, do nothing.
 */
const DECIDED = 'builtInReleaseDecided';

/** Who registers it, in the audit trail. */
export const CONSOLE_ACTOR: Actor = { username: 'Fleetlink console (at start)', subject: null };

const agentDir = fileURLToPath(new URL('../../../../agent/', import.meta.url));

export interface BuiltInReleaseDeps {
  db: Db;
  repo: ReleasesRepository;
  bundles: BundlesService;
  releases: ReleasesService;
  /** Where the bundle is packed, then removed (DATA_DIR). */
  workDir: string;
  log: { info(o: object, msg: string): void; warn(o: object, msg: string): void };
}

/**
 * Issue 59: a new console's Install page offers the installer and the portable archive before
 * anyone has uploaded a bundle. At its first start, when there is no release yet, the console packs
 * the agent it was built with (`npm run build:bundle`'s code) and registers it as the built-in
 * release of PRODUCTION under the agent's version, audited; a release of the operator's own takes
 * over from it (ReleasesService `byPrecedence`). Decided once: deleting it keeps it deleted. When
 * packing fails (an installation without the agent's build tools) it is tried again at the next start.
 */
export async function registerBuiltInRelease(deps: BuiltInReleaseDeps): Promise<'registered' | 'decided earlier' | 'releases exist'> {
  const claimed = await deps.db.insert(brokerSettings).values({ name: DECIDED, value: true }).onConflictDoNothing().returning();
  if (!claimed.length) return 'decided earlier';
  try {
    if ((await deps.repo.releases()).length) return 'releases exist';
    const version = (JSON.parse(readFileSync(path.join(agentDir, 'package.json'), 'utf8')) as { version: string }).version;
    const bundle = (await deps.repo.bundle(AGENT_BUNDLE_NAME, version)) ?? (await packAndAdd(deps, version));
    await deps.releases.createBuiltIn(CONSOLE_ACTOR, { name: bundle.name, version: bundle.version });
    deps.log.info({ version }, `registered the agent ${version} this console was built with as the built-in release (PRODUCTION ${version})`);
    return 'registered';
  } catch (err) {
    // Tried again at the next start.
    await deps.db.delete(brokerSettings).where(eq(brokerSettings.name, DECIDED));
    throw err;
  }
}

async function packAndAdd(deps: BuiltInReleaseDeps, version: string) {
  const dir = mkdtempSync(path.join(deps.workDir, '.built-in-bundle-'));
  try {
    // A process of its own: the packer's esbuild stays out of the console's memory.
    await promisify(execFile)(process.execPath, [path.join(agentDir, 'pack-bundle.mjs')], {
      env: { ...process.env, BUNDLE_VERSION: version, BUNDLE_OUT_DIR: dir },
      timeout: 120_000,
    });
    const file = path.join(dir, `${AGENT_BUNDLE_NAME}-${version}.tar.gz`);
    return await deps.bundles.addBuiltIn(CONSOLE_ACTOR, createReadStream(file), path.basename(file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
