import { randomBytes } from 'node:crypto';
import { sha256 } from '../enrollment/credentials.js';

/**
 * A blob URL's token: 256 random bits, so it cannot be guessed; the database keeps only its hash,
 * so a copy of it opens no URL.
 */
export function newTransferToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: sha256(token) };
}
