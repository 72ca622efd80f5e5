import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How a sealed value begins (SQL finds the plain ones by it). */
export const SEALED_PREFIX = 'sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {}

/**
 * Seals the secrets the console keeps in its database (servers' passwords, the provider's keys,
 * the key device passwords derive from) with AES-256-GCM under a key that lives outside it. The
 * context (which column or setting a value is) is authenticated too, so a sealed value copied to
 * another place does not open there.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('A secret box needs a 256-bit key.');
  }

  /**
   * A tag only consoles sharing this key can make (HMAC-SHA256 of the context and the message):
   * how one console proves itself to another, e.g. when it hands over a terminal's relay.
   */
  tag(message: string, context: string): string {
    return createHmac('sha256', this.key).update(`${context}\0${message}`).digest('base64url');
  }

  /** True when `tag` is `tag(message, context)`, compared in constant time. */
  verifyTag(tag: string, message: string, context: string): boolean {
    const expected = Buffer.from(this.tag(message, context));
    const given = Buffer.from(tag);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  static isSealed(value: unknown): value is string {
    return typeof value === 'string' && value.startsWith(SEALED_PREFIX);
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(context));
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  /** The plain value; throws SecretBoxError when it was not sealed here, with this key, for this context. */
  open(sealed: string, context: string): string {
    if (!SecretBox.isSealed(sealed)) throw new SecretBoxError(`The ${context} value is not sealed.`);
    const bytes = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES)).setAAD(Buffer.from(context));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError(`The ${context} value does not open with this key.`);
    }
  }

  sealNullable(plain: string | null | undefined, context: string): string | null | undefined {
    return plain === null || plain === undefined ? plain : this.seal(plain, context);
  }

  openNullable(sealed: string | null, context: string): string | null {
    return sealed === null ? null : this.open(sealed, context);
  }
}
