import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { JWK } from 'jose';
import type { Db } from '../db/client.js';
import { idpSecrets } from '../db/schema/index.js';

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
export async function loadOrCreateSecrets(db: Db): Promise<IdpSecrets> {
  const existing = await db.select().from(idpSecrets).where(eq(idpSecrets.name, 'keys'));
  if (existing[0]) return existing[0].value as IdpSecrets;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' }) as JWK;
  const created: IdpSecrets = {
    jwks: { keys: [{ ...jwk, kid: randomBytes(8).toString('hex'), use: 'sig', alg: 'RS256' }] },
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
  // Two instances starting at once: the first insert wins and both read it back.
  await db.insert(idpSecrets).values({ name: 'keys', value: created }).onConflictDoNothing();
  const [row] = await db.select().from(idpSecrets).where(eq(idpSecrets.name, 'keys'));
  return row.value as IdpSecrets;
}

/** The public half of the signing keys, as served at the provider's jwks_uri. */
export function publicJwks(secrets: IdpSecrets): { keys: JWK[] } {
  return {
    keys: secrets.jwks.keys.map(({ kty, n, e, crv, x, y, kid, alg, use }) => ({ kty, n, e, crv, x, y, kid, alg, use })),
  };
}
