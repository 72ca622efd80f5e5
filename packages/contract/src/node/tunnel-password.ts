import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Tunnel passwords (Basic credentials at the proxy), kept by the console as a scrypt hash that the
 * proxy checks: neither the database nor the proxy ever holds the password itself. Node only (the
 * SPA never hashes), hence a module of its own outside the package's index.
 */
const PARAMS = { N: 16384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

const derive = (password: string, salt: Buffer, o: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scrypt(password, salt, KEY_LENGTH, { ...o, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key))));

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export async function hashTunnelPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` is the one `hash` was made from; false for a hash of another shape. */
export async function verifyTunnelPassword(password: string, hash: string): Promise<boolean> {
  const [scheme, n, r, p, salt, expected] = hash.split('$');
  if (scheme !== 'scrypt' || !salt || !expected) return false;
  const N = Number(n);
  if (!Number.isInteger(N) || N < 2 || N > 1 << 20) return false;
  const want = Buffer.from(expected, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N, r: Number(r), p: Number(p) }).catch(() => undefined);
  return key !== undefined && key.length === want.length && timingSafeEqual(key, want);
}
