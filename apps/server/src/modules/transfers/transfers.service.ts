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
import { AppError } from '../../lib/app-error.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { callDevice, deviceUnavailable, type DeviceCallDeps } from '../broker/device-call.js';
import type { OrganizationPolicy } from '../organizations/organization.policy.js';
import { BlobTooLarge, type BlobStore } from './blobs/blob-store.js';
import { baseName, multipartFileName } from './http-file-names.js';
import { newTransferToken } from './transfer-token.js';
import type { TransfersRepository } from './transfers.repository.js';

/** How long an agent has to begin using its URL: it is asked right away. */
const AGENT_START_MS = 2 * 60_000;
/** How long a transfer between console and device may take, all of it (a 2 GB file on a slow link). */
const TRANSFER_TIMEOUT_MS = 60 * 60_000;
const GRACE_MS = 5_000;

const TEXTS = {
  offline: 'The device is offline: files can be transferred only while its agent is connected.',
  wentOffline: 'The device went offline during the transfer: try again once it is back.',
};

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
        const write = newTransferToken();
        await this.deps.repo.create({ id, deviceId, kind: 'DOWNLOAD', path, name: baseName(path), writeTokenHash: write.hash, writeExpiresAt: this.after(AGENT_START_MS) });
        try {
          const answer = await this.callAgent(deviceId, id, RequestName.SendFile, { transferId: id, url: agentBlobUrl(id, write.token), path }, signal);
          const sent = fileSendReplySchema.safeParse(answer);
          if (!sent.success) throw new AppError(502, ErrorCode.Unavailable, 'The device answered with something that is not a sent file.');
          size = sent.data.size;
          const read = newTransferToken();
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
   * `POST /api/upload/{id}` (multipart: path, file, overwrite): the file goes to the blob store,
   * then the agent fetches it into the folder. A file of that name is replaced only with
   * `overwrite=true`. The blob is gone afterwards, whichever way it ends.
   */
  async upload(p: Principal, deviceId: string, parts: AsyncIterable<UploadPart>, signal?: AbortSignal): Promise<FileChangeResult> {
    // Filled in as the form is read: the entry says as much as was known when it ended.
    const details: Record<string, unknown> = {};
    return this.deps.audit.track(p, { kind: AuditKind.FileUpload, deviceId, details }, async () => {
      await this.deps.policy.writeDevice(p, deviceId);
      // Before a byte is read: an offline device could not take the file anyway.
      if (!(await this.deps.devices.isOnline(deviceId))) throw deviceUnavailable(TEXTS.offline);
      const id = randomUUID();
      try {
        const form = await this.receive(id, deviceId, parts, details);
        const read = newTransferToken();
        await this.deps.repo.readable(id, form.size, { tokenHash: read.hash, expiresAt: this.after(AGENT_START_MS) });
        const request = { transferId: id, url: agentBlobUrl(id, read.token), path: form.path, name: form.name, size: form.size, overwrite: form.overwrite };
        const answer = await this.callAgent(deviceId, id, RequestName.FetchFile, request, signal);
        const result = fileChangeResultSchema.safeParse(answer ?? {});
        if (!result.success) throw new AppError(502, ErrorCode.Unavailable, 'The device answered with something that is not a file change.');
        return result.data;
      } finally {
        await this.discard(id);
      }
    });
  }

  /** Reads the form, storing the file as the blob `id` as it comes; checks each field as it comes. */
  private async receive(id: string, deviceId: string, parts: AsyncIterable<UploadPart>, details: Record<string, unknown>) {
    let path: string | undefined;
    let overwrite = false;
    let file: { name: string; size: number } | undefined;
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname === UPLOAD_FIELDS.path) path = details.path = valid(filePathSchema, part.value, UPLOAD_FIELDS.path);
        else if (part.fieldname === UPLOAD_FIELDS.overwrite) overwrite = details.overwrite = part.value === 'true';
        continue;
      }
      if (part.fieldname !== UPLOAD_FIELDS.file || file) {
        part.file.resume();
        throw badRequest(`Send one file, in the field '${UPLOAD_FIELDS.file}'.`);
      }
      const name = (details.name = valid(fileNameSchema, multipartFileName(part.filename), UPLOAD_FIELDS.file));
      await this.deps.repo.create({ id, deviceId, kind: 'UPLOAD', path: path ?? '', name, writtenAt: new Date() });
      file = { name, size: await this.store(id, part.file) };
      details.size = file.size;
      await this.deps.repo.written(id, file.size);
    }
    if (!file) throw new AppError(400, ErrorCode.Validation, 'Choose a file to upload.', { [UPLOAD_FIELDS.file]: 'Choose a file to upload.' });
    if (path === undefined) throw new AppError(400, ErrorCode.Validation, 'Path is required.', { [UPLOAD_FIELDS.path]: 'Path is required.' });
    return { path, overwrite, ...file };
  }

  private async store(id: string, source: Readable): Promise<number> {
    try {
      return await this.deps.blobs.write(id, source, this.deps.uploadMaxBytes);
    } catch (err) {
      source.resume();
      if (err instanceof BlobTooLarge) throw tooLarge(this.deps.uploadMaxBytes);
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(this.deps.uploadMaxBytes);
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
    const cancel = () => {
      void this.deps.hub.request(deviceId, RequestName.CancelTransfer, { transferId }, { timeoutMs: 10_000 }).catch(() => {});
    };
    if (signal.aborted) cancel();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      return await call;
    } finally {
      signal.removeEventListener('abort', cancel);
    }
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
  throw new AppError(400, ErrorCode.Validation, message, { [field]: message });
}

const badRequest = (message: string) => new AppError(400, ErrorCode.BadRequest, message);

export const tooLarge = (maxBytes: number) => new AppError(413, ErrorCode.PayloadTooLarge, uploadTooLargeMessage(maxBytes));
