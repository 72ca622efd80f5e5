import { randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { accountLimits } from '@fleetlink/contract';

/** How the authenticator app names the account: "Fleetlink (ada@example.com)". */
const ISSUER = 'Fleetlink';

/**
 * Codes one 30-second step early or late are taken too (RFC 6238 §5.2 allows for the clocks of a
 * phone and a server, and for the seconds it takes to type): 30 seconds either side.
 */
const TOLERANCE_SECONDS = 30;

/** A new TOTP secret: 160 random bits, base32 as authenticator apps read it. */
export const newTotpSecret = (): string => generateSecret();

export const totpUri = (secret: string, email: string): string => generateURI({ issuer: ISSUER, label: email, secret });

/** The QR code of the URI, an SVG document (the page shows it as an image, so nothing in it runs). */
export const qrSvg = (text: string): Promise<string> => QRCode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });

/**
 * The time step of a right code, or null; a step at or before `afterStep` (the last one used) is
 * refused, so a code seen over a shoulder or replayed opens nothing.
 */
export async function totpStep(secret: string, typed: string, afterStep: number | null): Promise<number | null> {
  const token = typed.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const result = await verify({ secret, token, epochTolerance: TOLERANCE_SECONDS, ...(afterStep !== null ? { afterTimeStep: afterStep } : {}) });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** Letters and digits that do not read alike (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten recovery codes of ten characters (about 49 random bits each), written "xxxxx-xxxxx". */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: accountLimits.recoveryCodes }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A recovery code as typed, the way it is hashed: no case, no spaces or dashes. */
export const normalRecoveryCode = (typed: string): string => typed.toLowerCase().replace(/[\s-]/g, '');
