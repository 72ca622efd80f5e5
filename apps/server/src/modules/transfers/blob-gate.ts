import type { Readable } from 'node:stream';
import { ErrorCode } from '@fleetlink/contract';
import { AppError } from '../../lib/app-error.js';
import { sha256, type DeviceCredentials } from '../enrollment/credentials.js';
import type { BlobStore } from './blobs/blob-store.js';
import type { TransfersRepository } from './transfers.repository.js';

export interface BasicCredentials {
  username: string;
  password: string;
}

const NOT_VALID = 'This transfer URL is not valid: it was used already, it expired, or it belongs to another device.';
const LINK_GONE = 'This download link was used already or has expired: start the download again from the Storage page.';

/**
 * The blob URLs (DESIGN §5: every channel authenticated and bound to one device or person). An
 * agent proves its device with its own MQTT account and the transfer's token; the browser's
 * download link is the token alone (a navigation carries no bearer token), served once and only
 * for minutes. Each URL is claimed once in the database before a byte moves.
 */
export class BlobGate {
  constructor(
    private readonly deps: {
      repo: TransfersRepository;
      blobs: BlobStore;
      credentials: Pick<DeviceCredentials, 'verify'>;
    },
  ) {}

  /** The agent sends the file of a download (`size` bytes, its Content-Length). */
  async agentWrite(auth: BasicCredentials | undefined, id: string, token: string, body: Readable, size: number | undefined): Promise<number> {
    const deviceId = await this.device(auth);
    if (size === undefined) throw new AppError(411, ErrorCode.BadRequest, 'Send the file with its Content-Length.');
    if (!(await this.deps.repo.claimWrite(id, deviceId, sha256(token)))) throw new AppError(403, ErrorCode.Forbidden, NOT_VALID);
    const written = await this.deps.blobs.write(id, body, size);
    await this.deps.repo.written(id, written);
    return written;
  }

  /** The agent fetches the file of an upload (while it is still arriving, when the store can follow it). */
  async agentRead(auth: BasicCredentials | undefined, id: string, token: string): Promise<{ stream: Readable; size?: number }> {
    const deviceId = await this.device(auth);
    if (!(await this.deps.repo.claimRead(id, sha256(token), deviceId))) throw new AppError(403, ErrorCode.Forbidden, NOT_VALID);
    const blob = await this.deps.blobs.read(id);
    if (!blob) throw new AppError(410, ErrorCode.NotFound, 'The file is not in the blob store any more.');
    return blob;
  }

  /** The browser fetches a downloaded file; its blob goes once it has been served (`done`). */
  async browserRead(id: string, token: string): Promise<{ stream: Readable; size?: number; name: string; done: () => Promise<void> }> {
    const row = await this.deps.repo.claimRead(id, sha256(token));
    const blob = row && (await this.deps.blobs.read(id));
    if (!row || !blob) throw new AppError(410, ErrorCode.NotFound, LINK_GONE);
    const done = async () => {
      await this.deps.blobs.remove(id);
      await this.deps.repo.removed(id);
    };
    return { ...blob, name: row.name, done };
  }

  private async device(auth: BasicCredentials | undefined): Promise<string> {
    const deviceId = auth && (await this.deps.credentials.verify(auth.username, auth.password));
    if (!deviceId) throw new AppError(401, ErrorCode.Unauthenticated, 'The device credentials are missing or not valid.');
    return deviceId;
  }
}
