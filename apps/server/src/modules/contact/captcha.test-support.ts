import { createChallenge, solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';

/** What the widget posts: base64 JSON of the challenge and the solution found for it. */
export async function solveCaptcha(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the CAPTCHA challenge could not be solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** A challenge like the console's, signed with `secret` (the console's own, or a forger's), expiring at `expiresAt`. */
export function signedChallenge(secret: string, expiresAt: Date): Promise<Challenge> {
  return createChallenge({ algorithm: 'PBKDF2/SHA-256', cost: 1, counter: 50, deriveKey, expiresAt, hmacSignatureSecret: secret });
}
