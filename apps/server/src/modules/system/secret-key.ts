import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, type Env } from '../../env.js';

export const SECRET_KEY_FILE = 'secret.key';

/**
 * The key the console's secrets at rest are sealed with, which must not live in the database:
 * SECRET_KEY (32+ random characters; several consoles sharing one database must share it), or else
 * a key the console makes once in DATA_DIR/secret.key with mode 0600. Any such string is hashed to
 * the 256 bits AES-256-GCM takes.
 */
export function loadSecretKey(env: Pick<Env, 'SECRET_KEY' | 'DATA_DIR'>): { key: Buffer; where: string } {
  if (env.SECRET_KEY) return { key: sha256(env.SECRET_KEY.trim()), where: 'SECRET_KEY' };
  const file = path.resolve(env.DATA_DIR, SECRET_KEY_FILE);
  mkdirSync(env.DATA_DIR, { recursive: true, mode: 0o700 });
  try {
    // 'wx': two consoles starting on one DATA_DIR at once both end up with the first one's key.
    writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new ConfigError(`Cannot create the secret key file ${file}: ${(err as Error).message}`);
  }
  const text = readFileSync(file, 'utf8').trim();
  if (text.length < 32) throw new ConfigError(`The secret key file ${file} must hold at least 32 characters.`);
  return { key: sha256(text), where: file };
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();
