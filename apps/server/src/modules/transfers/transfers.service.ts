import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  agentBlobUrl,
  AuditKind,
  DOWNLOAD_URL_TTL_MS,
  downloadUrl,
  ErrorCode,
  fileChangeResultSchema,
  fileNameSchema,
  filePathSchema,
  fileSendReplySchema,
  RequestName,
  UPLOAD_FIELDS,
  uploadTooLargeMessage,
  type FileChangeResult,
} from '@fleetlink/contract';
import type { Principal } from '../../auth/principal.js';
import { AppError, badRequest } from '../../lib/app-error.js';
import { newLinkToken } from '../../lib/link-token.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { callDevice, deviceAnswer, deviceUnavailable, type DeviceCallDeps } from '../broker/device-call.js';
import type { OrganizationPolicy } from '../organizations/organization.policy.js';
import type { BlobStore } from './blobs/blob-store.js';
import { baseName, multipartFileName } from './http-file-names.js';
import type { TransfersRepository } from './transfers.repository.js';
import { uploadFailure } from './upload-failure.js';

/** How long an agent has to begin using its URL: it is asked right away. */
const AGENT_START_MS = 2 * 60_000;
/** How long a transfer between console and device may take, all of it (a 2 GB file on a slow link). */
const TRANSFER_TIMEOUT_MS = 60 * 60_000;
const GRACE_MS = 5_000;

const TEXTS = {
  offline: 'The device is offline: files can be transferred only while its agent is connected.',
  wentOffline: 'The device went offline during the transfer: try again once it is back.',
};

/** An upload's form once its file begins: the fields, and the file's bytes still arriving. */
interface Upload {
  path: string;
  overwrite: boolean;
  name: string;
  file: Readable;
}

/** One part of a multipart body (the shape @fastify/multipart's parts have). */
export type UploadPart =
  | { type: 'field'; fieldname: string; value: unknown }
  | { type: 'file'; fieldname: string; filename: string; file: Readable };

export interface TransfersDeps extends DeviceCallDeps {
  policy: OrganizationPolicy;
  audit: AuditTrail;
  blobs: BlobStore;
  repo: TransfersRepository;
  uploadMaxBytes: number;
  log: { warn(o: object, m: string): void };
}

/**
 * File transfers between a person and a device (issue 27). The bytes go through the blob store under
 * the transfer's id; the device fetches or sends them over HTTP with a URL only it can use, once
 * (DESIGN §5, §7). USER members may download; uploads need CREATOR or ADMIN. Every transfer leaves
 * one audit entry with its size and how it ended.
 */
export class TransfersService {
  constructor(private readonly deps: TransfersDeps) {}

  /**
   * `GET /api/request-download/{id}?path=`: the agent sends the file to the blob store; the answer is
   * a relative URL that serves it once, within DOWNLOAD_URL_TTL_MS.
   */
  async requestDownload(p: Principal, deviceId: string, path: string, signal?: AbortSignal): Promise<string> {
    const action = { kind: AuditKind.FileDownload, deviceId, details: { path } };
    let size = 0;
    return this.deps.audit.track(
      p,
      action,
      async () => {
        await this.deps.policy.readDevice(p, deviceId);
        const id = randomUUID();
        const write = newLinkToken();
        await this.deps.repo.create({ id, deviceId, kind: 'DOWNLOAD', path, name: baseName(path), writeTokenHash: write.hash, writeExpiresAt: this.after(AGENT_START_MS) });
        try {
          const answer = await this.callAgent(deviceId, id, RequestName.SendFile, { transferId: id, url: agentBlobUrl(id, write.token), path }, signal);
          size = deviceAnswer(fileSendReplySchema, answer, 'a sent file').size;
          const read = newLinkToken();
          if (!(await this.deps.repo.readable(id, size, { tokenHash: read.hash, expiresAt: this.after(DOWNLOAD_URL_TTL_MS) }))) {
            throw new AppError(502, ErrorCode.Unavailable, 'The device said it sent the file, but the console did not receive all of it: try again.');
          }
          return downloadUrl(id, read.token);
        } catch (err) {
          await this.discard(id);
          throw err;
        }
      },
      () => ({ details: { path, size } }),
    );
  }

  /**
   * `POST /api/upload/{id}` (multipart: path, overwrite, then file): the file goes to the blob store
   * and the agent fetches it into the folder, while it still arrives when the store can follow a
   * blob being written (the two hops overlap), else once it is all there. A file of that name is
   * replaced only with `overwrite=true`. The blob is gone afterwards, whichever way it ends.
   */
  async upload(p: Principal, deviceId: string, parts: AsyncIterable<UploadPart>, signal?: AbortSignal): Promise<FileChangeResult> {
    // Filled in as the form is read: the entry says as much as was known when it ended.
    const details: Record<string, unknown> = {};
    return this.deps.audit.track(p, { kind: AuditKind.FileUpload, deviceId, details }, async () => {
      await this.deps.policy.writeDevice(p, deviceId);
      // Before a byte is read: an offline device could not take the file anyway.
      if (!(await this.deps.devices.isOnline(deviceId))) throw deviceUnavailable(TEXTS.offline);
      const id = randomUUID();
      const form = parts[Symbol.asyncIterator]();
      try {
        const upload = await this.fieldsThenFile(form, details);
        await this.deps.repo.create({ id, deviceId, kind: 'UPLOAD', path: upload.path, name: upload.name, writtenAt: new Date() });
        const result = this.deps.blobs.followsWrites
          ? await this.storeWhileFetched(deviceId, id, upload, details, signal)
          : await this.storeThenFetch(deviceId, id, upload, details, signal);
        if (!(await form.next()).done) throw malformed('Send the file last: nothing may follow it.');
        return result;
      } finally {
        await this.discard(id);
      }
    });
  }

  /** The fields, checked as they come, up to the file: the folder must be known before its bytes arrive. */
  private async fieldsThenFile(form: AsyncIterator<UploadPart>, details: Record<string, unknown>): Promise<Upload> {
    let path: string | undefined;
    let overwrite = false;
    for (let next = await form.next(); !next.done; next = await form.next()) {
      const part = next.value;
      if (part.type === 'field') {
        if (part.fieldname === UPLOAD_FIELDS.path) path = details.path = valid(filePathSchema, part.value, UPLOAD_FIELDS.path);
        else if (part.fieldname === UPLOAD_FIELDS.overwrite) overwrite = details.overwrite = part.value === 'true';
        continue;
      }
      if (part.fieldname !== UPLOAD_FIELDS.file) {
        part.file.resume();
        throw malformed(`Send the file in the field '${UPLOAD_FIELDS.file}'.`);
      }
      const name = (details.name = valid(fileNameSchema, multipartFileName(part.filename), UPLOAD_FIELDS.file));
      if (path === undefined) {
        part.file.resume();
        throw badRequest('Path is required: send it before the file.', { [UPLOAD_FIELDS.path]: 'Path is required.' });
      }
      return { path, overwrite, name, file: part.file };
    }
    throw badRequest('Choose a file to upload.', { [UPLOAD_FIELDS.file]: 'Choose a file to upload.' });
  }

  /** The two hops in turn: the whole file into the store, then to the device. */
  private async storeThenFetch(deviceId: string, id: string, upload: Upload, details: Record<string, unknown>, signal?: AbortSignal) {
    const size = await this.stored(id, upload.file, details);
    const read = newLinkToken();
    await this.deps.repo.readable(id, size, { tokenHash: read.hash, expiresAt: this.after(AGENT_START_MS) });
    return this.fetchInto(deviceId, id, read.token, upload, size, signal);
  }

  /**
   * The two hops at once: the agent follows the blob as it is written. Whichever fails first says
   * why, and the other is stopped: a refusal by the device ends the upload at once (a name taken),
   * and a failed upload (too large, cancelled) ends the device's copy, which keeps nothing.
   */
  private async storeWhileFetched(deviceId: string, id: string, upload: Upload, details: Record<string, unknown>, signal?: AbortSignal) {
    const read = newLinkToken();
    await this.deps.repo.readable(id, undefined, { tokenHash: read.hash, expiresAt: this.after(AGENT_START_MS) });
    const storing = this.stored(id, upload.file, details);
    const fetching = this.fetchInto(deviceId, id, read.token, upload, null, signal);
    try {
      const [size, result] = await Promise.all([storing, fetching]);
      if (result.entry && result.entry.size !== size) throw new AppError(502, ErrorCode.Unavailable, `The device received ${result.entry.size} of ${size} bytes: try again.`);
      return result;
    } catch (err) {
      upload.file.destroy();
      this.cancel(deviceId, id);
      await storing.catch(() => {});
      throw err;
    }
  }

  private async stored(id: string, source: Readable, details: Record<string, unknown>): Promise<number> {
    const size = (details.size = await this.store(id, source));
    await this.deps.repo.written(id, size);
    return size;
  }

  private async fetchInto(deviceId: string, id: string, token: string, upload: Upload, size: number | null, signal?: AbortSignal): Promise<FileChangeResult> {
    const request = { transferId: id, url: agentBlobUrl(id, token), path: upload.path, name: upload.name, size, overwrite: upload.overwrite };
    const answer = await this.callAgent(deviceId, id, RequestName.FetchFile, request, signal);
    return deviceAnswer(fileChangeResultSchema, answer ?? {}, 'a file change');
  }

  private async store(id: string, source: Readable): Promise<number> {
    try {
      return await this.deps.blobs.write(id, source, this.deps.uploadMaxBytes);
    } catch (err) {
      source.resume();
      const failure = uploadFailure(err);
      if (failure === 'too-large') throw tooLarge(this.deps.uploadMaxBytes);
      if (failure === 'broke-off') throw new AppError(400, ErrorCode.BadRequest, 'The upload broke off before the whole file arrived.');
      throw err;
    }
  }

  /**
   * Asks the agent to move the bytes. When the person gives up first (the browser's request ends),
   * the agent is told to stop, and leaves nothing behind.
   */
  private async callAgent(deviceId: string, transferId: string, name: string, parameters: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    const call = callDevice(this.deps, deviceId, name, parameters, { timeoutMs: TRANSFER_TIMEOUT_MS, graceMs: GRACE_MS }, TEXTS);
    if (!signal) return call;
    const cancel = () => this.cancel(deviceId, transferId);
    if (signal.aborted) cancel();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      return await call;
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }

  /** Tells the agent to stop a transfer it may still be running; it answers its own request with a refusal. */
  private cancel(deviceId: string, transferId: string): void {
    void this.deps.hub.request(deviceId, RequestName.CancelTransfer, { transferId }, { timeoutMs: 10_000 }).catch(() => {});
  }

  /** The transfer's blob goes; it is marked so, and the sweep takes it if this fails. */
  private async discard(id: string): Promise<void> {
    try {
      await this.deps.blobs.remove(id);
      await this.deps.repo.removed(id);
    } catch (err) {
      this.deps.log.warn({ err, transferId: id }, 'transfer: blob not removed (the sweep will)');
    }
  }

  private after(ms: number): Date {
    return new Date(Date.now() + ms);
  }
}

function valid<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } } }, value: unknown, field: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const message = r.error.issues[0]!.message;
  throw badRequest(message, { [field]: message });
}

/** A form that is not built as the route reads it (as opposed to a field's value, which badRequest names). */
const malformed = (message: string) => new AppError(400, ErrorCode.BadRequest, message);

export const tooLarge = (maxBytes: number) => new AppError(413, ErrorCode.PayloadTooLarge, uploadTooLargeMessage(maxBytes));
