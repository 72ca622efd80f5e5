import { z } from 'zod';
import { DEVICE_CALL_ERRORS, LINK_GONE_ERRORS } from './route-errors.js';
import { formatBytes } from '../format-bytes.js';
import { filePathSchema } from './files.js';

/**
 * File transfers (SPEC §7 `POST /upload/{id}`, `GET /request-download/{id}`; DESIGN §5, §7): the
 * bytes go through the console's blob store over HTTP, never inside MQTT messages. Each blob URL
 * carries a single-use token bound to one transfer of one device.
 */

/** The multipart fields of `POST /api/upload/{id}`: the folder and a confirmed overwrite, then the file. */
export const UPLOAD_FIELDS = { path: 'path', file: 'file', overwrite: 'overwrite' } as const;

/** The default of `UPLOAD_MAX_BYTES`: 4 GiB. */
export const UPLOAD_MAX_BYTES_DEFAULT = 4 * 1024 ** 3;

/** What the console answers (413), and the page says before sending, for a file past the limit. */
export const uploadTooLargeMessage = (maxBytes: number) => `The file is larger than the upload limit of ${formatBytes(maxBytes)}.`;

/** How long the URL `request-download` answers may wait to be opened. */
export const DOWNLOAD_URL_TTL_MS = 5 * 60_000;

/** `GET /api/request-download/{id}?path=`: the file to fetch from the device. */
export const downloadQuerySchema = z.object({ path: filePathSchema });

/** A blob URL's transfer (its single-use token is a `linkTokenQuerySchema`). */
export const transferParamsSchema = z.object({ transferId: z.uuid('Not a transfer id.') });

/** Where the browser downloads a file the device has sent (the relative URL `request-download` answers). */
export const DOWNLOAD_URL_PREFIX = '/api/download/';
export const downloadUrl = (transferId: string, token: string) => `${DOWNLOAD_URL_PREFIX}${transferId}?token=${encodeURIComponent(token)}`;

/** Where an agent sends (PUT) or fetches (GET) a transfer's bytes, relative to the console it enrolled with. */
export const agentBlobUrl = (transferId: string, token: string) => `/api/agent/blob/${transferId}?token=${encodeURIComponent(token)}`;

/** Files between a person and a device, through the console's blob store (SPEC §7). */
export const transferRoutes = {
  requestDownload: { method: 'GET', path: '/api/request-download/:id', role: 'USER', errors: DEVICE_CALL_ERRORS },
  upload: { method: 'POST', path: '/api/upload/:id', role: 'USER', errors: DEVICE_CALL_ERRORS },
  /** The one-time link requestDownload answered. */
  download: { method: 'GET', path: '/api/download/:transferId', oneTimeLink: true, errors: LINK_GONE_ERRORS },
  /** The agent's side, with the device's own account and the transfer's token. */
  agentSend: { method: 'PUT', path: '/api/agent/blob/:transferId', oneTimeLink: true, errors: [411] },
  agentFetch: { method: 'GET', path: '/api/agent/blob/:transferId', oneTimeLink: true, errors: LINK_GONE_ERRORS },
} as const;
