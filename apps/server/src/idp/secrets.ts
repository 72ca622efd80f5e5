import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { JWK } from 'jose';
import type { Db } from '../db/client.js';
import type { SecretBox } from '../lib/secret-box.js';
import { loadOrCreateConsoleSecret } from '../modules/system/console-secrets.js';

export interface IdpSecrets {
  /** Private signing keys (JWK) for tokens. */
  jwks: { keys: JWK[] };
  /** Keys that sign the provider's cookies. */
  cookieKeys: string[];
}

/**
 * Loads the provider's keys, creating them on first start. They live in the database so every
 * console instance signs and verifies with the same keys and restarts keep sessions valid.
 */
export function loadOrCreateSecrets(db: Db, box: SecretBox): Promise<IdpSecrets> {
  return loadOrCreateConsoleSecret(db, box, 'idp-keys', (): IdpSecrets => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = privateKey.export({ format: 'jwk' }) as JWK;
    return {
      jwks: { keys: [{ ...jwk, kid: randomBytes(8).toString('hex'), use: 'sig', alg: 'RS256' }] },
      cookieKeys: [randomBytes(32).toString('base64url')],
    };
  });
}

/** The public half of the signing keys, as served at the provider's jwks_uri. */
export function publicJwks(secrets: IdpSecrets): { keys: JWK[] } {
  return {
    keys: secrets.jwks.keys.map(({ kty, n, e, crv, x, y, kid, alg, use }) => ({ kty, n, e, crv, x, y, kid, alg, use })),
  };
}
