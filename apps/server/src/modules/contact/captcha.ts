import { createChallenge, randomInt, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { deriveHmacKeySecret } from 'altcha-lib/frameworks/fastify';
import { captchaMessages, contactChallengeSchema } from '@fleetlink/contract';
import { z } from 'zod';
import { badRequest } from '../../lib/app-error.js';
import type { CaptchaRedemptionsRepository } from './captcha-redemptions.repository.js';

export interface CaptchaSettings {
  /** HMAC key that signs challenges; a solution is checked against the console's own signature. */
  secret: string;
  /** PBKDF2 iterations per attempt; a solve takes COUNTER_MIN to COUNTER_MAX attempts. */
  cost: number;
  /** Seconds a challenge can be answered in. */
  ttlSeconds: number;
}

/**
 * The counter the browser has to find lies in this range (deterministic mode): every solve costs
 * between COUNTER_MIN and COUNTER_MAX key derivations, so its time is predictable.
 */
const COUNTER_MIN = 1000;
const COUNTER_MAX = 2000;

/** The widget's payload: base64 JSON of the challenge it was given and the solution it found. */
const payloadSchema = z.object({
  challenge: contactChallengeSchema.extend({
    // Only what this console issues: its algorithm, and always an expiry.
    parameters: contactChallengeSchema.shape.parameters.extend({ algorithm: z.literal('PBKDF2/SHA-256'), expiresAt: z.number() }),
  }),
  solution: z.object({ counter: z.number().int().nonnegative(), derivedKey: z.string().regex(/^[0-9a-f]+$/), time: z.number().optional() }),
});

const refused = (message: string) => badRequest(message, { captcha: message });

/**
 * A self-hosted ALTCHA proof of work: challenges signed by the console, each answer accepted once
 * and only before the challenge expires. No third party is asked anything.
 */
export class Captcha {
  private keySecret?: Promise<string>;

  constructor(
    private readonly settings: CaptchaSettings,
    private readonly redemptions: CaptchaRedemptionsRepository,
  ) {}

  /** Lets the console check an answer by two HMACs instead of deriving the key again. */
  private keySignatureSecret() {
    this.keySecret ??= deriveHmacKeySecret(this.settings.secret);
    return this.keySecret;
  }

  async challenge(): Promise<Challenge> {
    return createChallenge({
      algorithm: 'PBKDF2/SHA-256',
      cost: this.settings.cost,
      counter: randomInt(COUNTER_MIN, COUNTER_MAX),
      deriveKey,
      expiresAt: new Date(Date.now() + this.settings.ttlSeconds * 1000),
      hmacSignatureSecret: this.settings.secret,
      hmacKeySignatureSecret: await this.keySignatureSecret(),
    });
  }

  /** Accepts a solved challenge once; otherwise throws a 400 that names the CAPTCHA field. */
  async redeem(payload: string): Promise<void> {
    const parsed = payloadSchema.safeParse(decode(payload));
    if (!parsed.success) throw refused(captchaMessages.invalid);
    const { challenge, solution } = parsed.data;
    const result = await verifySolution({
      challenge: challenge as Challenge,
      solution,
      deriveKey,
      hmacSignatureSecret: this.settings.secret,
      hmacKeySignatureSecret: await this.keySignatureSecret(),
    }).catch(() => undefined);
    // The library looks at the date before the signature: a forged challenge past it is refused either way.
    if (result?.expired) throw refused(captchaMessages.expired);
    if (!result?.verified) throw refused(captchaMessages.invalid);
    const expiresAt = new Date(challenge.parameters.expiresAt * 1000);
    if (!(await this.redemptions.redeem(challenge.signature, expiresAt))) throw refused(captchaMessages.used);
  }
}

function decode(payload: string): unknown {
  try {
    return JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
}
