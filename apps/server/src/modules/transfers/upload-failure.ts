import { BlobTooLarge } from './blobs/blob-store.js';

/**
 * Why streaming an uploaded file into a blob store failed, when the person's side caused it: past
 * the limit (the store's own, or the multipart parser's), or the browser went away mid-way (a
 * Cancel, a closed tab, the network). Anything else is the console's and stays a 500.
 */
export function uploadFailure(err: unknown): 'too-large' | 'broke-off' | undefined {
  const code = (err as { code?: string }).code;
  if (err instanceof BlobTooLarge || code === 'FST_REQ_FILE_TOO_LARGE') return 'too-large';
  if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || /^(aborted|Unexpected end of)/.test((err as Error).message)) return 'broke-off';
  return undefined;
}
