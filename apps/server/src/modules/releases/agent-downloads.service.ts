import { chmodSync, copyFileSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { agentBundleOf, agentPortableFolder, releaseBranchesFor, type AgentDownloadKind, type AgentDownloads } from '@fleetlink/contract';
import { create, extract } from 'tar';
import type { Principal } from '../../auth/principal.js';
import { notFound } from '../../lib/app-error.js';
import { keepPrivate } from '../../lib/private-files.js';
import type { OrganizationPolicy } from '../organizations/organization.policy.js';
import type { BlobStore } from '../transfers/blobs/blob-store.js';
import type { BundleRecord, ReleasesRepository } from './releases.repository.js';
import { byPrecedence } from './releases.service.js';

/** The line of the installer after which the portable archive follows (launcher/install.sh). */
export const INSTALLER_ARCHIVE_MARKER = '__FLEETLINK_ARCHIVE__';

export interface AgentDownloadsDeps {
  repo: ReleasesRepository;
  store: BlobStore;
  policy: Pick<OrganizationPolicy, 'readDevice'>;
  /** Where the built files are kept, one folder per bundle (DATA_DIR/agent-downloads): they are made again when missing. */
  cacheDir: string;
}

interface Built {
  files: Record<AgentDownloadKind, { name: string; file: string; size: number }>;
}

/**
 * The Install page's downloads (issue 32), built from the agent bundle of the device's release:
 * a portable archive (fleetlink-agent-{v}/ with the shell launcher, install.sh, `current` and
 * bundles/{v}/, which runs where it is unpacked), and the Linux installer, which is the bundle's
 * install.sh with that archive after its marker line. Built once per bundle; the sizes are the files'.
 */
export class AgentDownloadsService {
  private readonly building = new Map<string, Promise<Built>>();

  constructor(private readonly deps: AgentDownloadsDeps) {}

  async list(p: Principal, deviceId: string): Promise<AgentDownloads> {
    const found = await this.releaseOf(p, deviceId);
    if (!found) return { release: null, downloads: [] };
    const built = await this.built(found.bundle);
    return {
      release: { branch: found.release.branch, version: found.release.version, bundleVersion: found.bundle.version, builtIn: found.release.builtIn },
      downloads: (['installer', 'portable'] as const).map((kind) => ({ kind, name: built.files[kind].name, size: built.files[kind].size })),
    };
  }

  async file(p: Principal, deviceId: string, kind: AgentDownloadKind): Promise<{ name: string; size: number; stream: Readable }> {
    const found = await this.releaseOf(p, deviceId);
    if (!found) throw notFound("There is no release for this device's branch yet, so there is nothing to download.");
    const { name, file, size } = (await this.built(found.bundle)).files[kind];
    return { name, size, stream: createReadStream(file) };
  }

  /** The release the device takes (an operator's before the built-in one, then the newest) of those that hold an agent bundle, and that bundle. */
  private async releaseOf(p: Principal, deviceId: string) {
    await this.deps.policy.readDevice(p, deviceId);
    const branch = await this.deps.repo.deviceBranch(deviceId);
    if (!branch) throw notFound('Device not found.');
    const releases = (await this.deps.repo.releases(releaseBranchesFor[branch])).sort(byPrecedence);
    for (const release of releases) {
      const agent = agentBundleOf(release.bundles);
      const bundle = agent && (await this.deps.repo.bundle(agent.name, agent.version));
      if (bundle) return { release, bundle };
    }
    return undefined;
  }

  private built(bundle: BundleRecord): Promise<Built> {
    let job = this.building.get(bundle.id);
    if (!job) {
      job = this.build(bundle);
      this.building.set(bundle.id, job);
      // A failure is tried again next time; a success stays on disk and in this map.
      job.catch(() => this.building.delete(bundle.id));
    }
    return job;
  }

  private async build(bundle: BundleRecord): Promise<Built> {
    const v = bundle.version;
    const names = { portable: `${agentPortableFolder(v)}-linux-portable.tar.gz`, installer: `${agentPortableFolder(v)}-linux-installer.sh` };
    const dir = path.join(this.deps.cacheDir, bundle.id);
    if (!existsSync(path.join(dir, names.installer))) await this.make(bundle, dir, names);
    const entry = (kind: AgentDownloadKind) => {
      const file = path.join(dir, names[kind]);
      return { name: names[kind], file, size: statSync(file).size };
    };
    return { files: { installer: entry('installer'), portable: entry('portable') } };
  }

  private async make(bundle: BundleRecord, dir: string, names: Record<AgentDownloadKind, string>) {
    mkdirSync(this.deps.cacheDir, { recursive: true, mode: 0o700 });
    const work = mkdtempSync(path.join(this.deps.cacheDir, '.build-'));
    try {
      const top = agentPortableFolder(bundle.version);
      const unpacked = path.join(work, top, 'bundles', bundle.version);
      mkdirSync(unpacked, { recursive: true });
      const blob = await this.deps.store.read(bundle.id);
      if (!blob) throw notFound(`The bundle ${bundle.name} ${bundle.version} is missing from the bundle store.`);
      // Uploads were checked entry by entry (BundleArchive): nothing in it leaves its folder.
      await pipeline(blob.stream, extract({ cwd: unpacked, strict: true }));
      const launcher = path.join(unpacked, 'launcher');
      if (!existsSync(path.join(launcher, 'fleetlink-agent')) || !existsSync(path.join(launcher, 'install.sh'))) {
        throw notFound(`The agent bundle ${bundle.version} has no launcher (launcher/), so no installer can be built from it: release a bundle made by npm run build:bundle.`);
      }
      for (const file of ['fleetlink-agent', 'install.sh']) {
        copyFileSync(path.join(launcher, file), path.join(work, top, file));
        chmodSync(path.join(work, top, file), 0o755);
      }
      writeFileSync(path.join(work, top, 'current'), `${bundle.version}\n`);
      const out = path.join(work, 'out');
      mkdirSync(out, { mode: 0o700 });
      await create({ gzip: true, file: path.join(out, names.portable), cwd: work, portable: true }, [top]);
      const script = readFileSync(path.join(launcher, 'install.sh'), 'utf8');
      writeFileSync(path.join(out, names.installer), Buffer.concat([Buffer.from(`${script.trimEnd()}\n${INSTALLER_ARCHIVE_MARKER}\n`), readFileSync(path.join(out, names.portable))]), { mode: 0o700 });
      keepPrivate(out);
      rmSync(dir, { recursive: true, force: true });
      renameSync(out, dir);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
}
