import { randomBytes } from 'node:crypto';
import { sha256 } from '../modules/enrollment/credentials.js';

/**
 * The token of a one-time link (a blob URL, an audit export): 256 random bits, so it cannot be
 * guessed; the database keeps only its hash, so a copy of it opens no link.
 */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: sha256(token) };
}
