import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AuditKind, BUNDLE_UPLOAD_FIELD, ErrorCode, formatBytes, type Bundle } from '@fleetlink/contract';
import { rcompare } from 'semver';
import type { Principal } from '../../auth/principal.js';
import type { Actor } from '../audit/audit-trail.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/app-error.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { isForeignKeyViolation, isUniqueViolation } from '../organizations/unique-violation.js';
import type { BlobStore } from '../transfers/blobs/blob-store.js';
import type { UploadPart } from '../transfers/transfers.service.js';
import { uploadFailure } from '../transfers/upload-failure.js';
import { BadBundle, BundleArchive } from './bundle-archive.js';
import type { BundleRecord, ReleasesRepository } from './releases.repository.js';

export const bundleTooLarge = (maxBytes: number) => new AppError(413, ErrorCode.PayloadTooLarge, `The bundle is larger than the limit of ${formatBytes(maxBytes)}.`);

export interface BundlesDeps {
  repo: ReleasesRepository;
  /** The bundle store: never swept, unlike the transfers' blobs. */
  store: BlobStore;
  audit: AuditTrail;
  maxBytes: number;
}

const toBundle = (b: BundleRecord): Bundle => ({ name: b.name, version: b.version, sha256: b.sha256, size: b.size, uploadedAt: b.uploadedAt.toISOString() });
const byNameThenNewest = (a: BundleRecord, b: BundleRecord) => a.name.localeCompare(b.name) || rcompare(a.version, b.version);

/**
 * Agent bundles (issue 31): archives of agent code with a manifest, uploaded by realm ADMINs. An
 * upload is checked as it streams into the store (BundleArchive) and kept under a new id only once
 * all of it proved to be a bundle whose name and version are new; the row keeps its SHA-256.
 */
export class BundlesService {
  constructor(private readonly deps: BundlesDeps) {}

  async list(): Promise<Bundle[]> {
    return (await this.deps.repo.bundles()).sort(byNameThenNewest).map(toBundle);
  }

  async names(): Promise<string[]> {
    return [...new Set((await this.deps.repo.bundles()).map((b) => b.name))].sort();
  }

  /** The versions of one bundle, newest first. */
  async versions(name: string): Promise<string[]> {
    return (await this.deps.repo.bundles(name)).sort(byNameThenNewest).map((b) => b.version);
  }

  /** `POST /api/bundle` (multipart, the archive in the field 'file'). */
  async upload(p: Principal, parts: AsyncIterable<UploadPart>): Promise<Bundle> {
    const details: Record<string, unknown> = {};
    return this.deps.audit.track(p, { kind: AuditKind.BundleUpload, details }, async () => this.keep(await fileOf(parts, details), details));
  }

  /** The bundle the console packed of the agent it was built with (issue 59), checked and kept as an upload is. */
  async addBuiltIn(actor: Actor, file: Readable, fileName: string): Promise<Bundle> {
    const details: Record<string, unknown> = { file: fileName, builtIn: true };
    return this.deps.audit.track(actor, { kind: AuditKind.BundleUpload, details }, () => this.keep(file, details));
  }

  /** Streams an archive into the store, checking it on the way; keeps it under a new id once it proved to be a new bundle. */
  private async keep(file: Readable, details: Record<string, unknown>): Promise<Bundle> {
    const id = randomUUID();
    const archive = new BundleArchive();
    let size: number;
    // The upload's own failure (too large for the form, the browser gone) ends the store's write too.
    file.once('error', (err) => archive.stream.destroy(err));
    try {
      size = details.size = await this.deps.store.write(id, file.pipe(archive.stream), this.deps.maxBytes);
    } catch (err) {
      file.resume();
      throw this.storeError(err);
    }
    try {
      const { manifest, sha256 } = archive.result();
      Object.assign(details, manifest, { sha256 });
      return toBundle(await this.deps.repo.insertBundle({ id, ...manifest, sha256, size }));
    } catch (err) {
      await this.deps.store.remove(id);
      if (err instanceof BadBundle) throw badRequest(err.message, { [BUNDLE_UPLOAD_FIELD]: err.message });
      if (isUniqueViolation(err)) throw conflict(`Bundle ${details.name} ${details.version} is already uploaded: give the new one another version.`);
      throw err;
    }
  }

  /** Deletes a bundle no release holds. */
  async delete(p: Principal, name: string, version: string): Promise<void> {
    await this.deps.audit.track(p, { kind: AuditKind.BundleDelete, details: { name, version } }, async () => {
      const bundle = await this.deps.repo.bundle(name, version);
      if (!bundle) throw notFound(`There is no bundle ${name} ${version}.`);
      const holders = await this.deps.repo.releasesWith(bundle.id);
      if (holders.length) throw conflict(`Bundle ${name} ${version} is part of the release${holders.length > 1 ? 's' : ''} ${holders.join(', ')}: delete ${holders.length > 1 ? 'those' : 'that'} first.`);
      try {
        await this.deps.repo.deleteBundle(bundle.id);
      } catch (err) {
        // A release that took it in since the check above.
        if (isForeignKeyViolation(err)) throw conflict(`Bundle ${name} ${version} was just added to a release: delete that first.`);
        throw err;
      }
      await this.deps.store.remove(bundle.id);
    });
  }

  private storeError(err: unknown): unknown {
    if (err instanceof BadBundle) return badRequest(err.message, { [BUNDLE_UPLOAD_FIELD]: err.message });
    const failure = uploadFailure(err);
    if (failure === 'too-large') return bundleTooLarge(this.deps.maxBytes);
    if (failure === 'broke-off') return new AppError(400, ErrorCode.BadRequest, 'The upload broke off before the whole bundle arrived.');
    return err;
  }
}

/** The archive's part: the only one the form has. */
async function fileOf(parts: AsyncIterable<UploadPart>, details: Record<string, unknown>): Promise<Readable> {
  for await (const part of parts) {
    if (part.type === 'file' && part.fieldname === BUNDLE_UPLOAD_FIELD) {
      details.file = part.filename;
      return part.file;
    }
    if (part.type === 'file') part.file.resume();
  }
  const message = 'Choose a bundle archive (.tar.gz) to upload.';
  throw badRequest(message, { [BUNDLE_UPLOAD_FIELD]: message });
}
