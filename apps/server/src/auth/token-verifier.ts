import { createLocalJWKSet, createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWK } from 'jose';
import { ConfigError } from '../env.js';
import { principalFromClaims, type Principal } from './principal.js';

export interface TokenVerifier {
  verify(token: string): Promise<Principal>;
}

export class InvalidTokenError extends Error {}

interface VerifierOptions {
  issuer: string;
  audience?: string;
  /** Keys of the built-in provider, verified in-process; otherwise fetched from the issuer's JWKS. */
  localJwks?: { keys: JWK[] };
}

/** Checks signature (issuer JWKS), issuer, audience and expiry of a bearer access token. */
export async function createTokenVerifier(opts: VerifierOptions): Promise<TokenVerifier> {
  const keys = opts.localJwks ? createLocalJWKSet(opts.localJwks) : createRemoteJWKSet(await discoverJwksUri(opts.issuer));
  return {
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, keys, {
          issuer: opts.issuer,
          audience: opts.audience,
          clockTolerance: 5,
        });
        if (!payload.sub) throw new InvalidTokenError('The access token has no subject.');
        return principalFromClaims(payload);
      } catch (err) {
        if (err instanceof InvalidTokenError) throw err;
        if (err instanceof joseErrors.JWTExpired) throw new InvalidTokenError('The access token has expired. Sign in again.');
        throw new InvalidTokenError('The access token is not valid.');
      }
    },
  };
}

/** Reads the issuer's discovery document once at start: an unreachable issuer stops the start. */
async function discoverJwksUri(issuer: string): Promise<URL> {
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  } catch (err) {
    const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
    throw new ConfigError(`Cannot reach the OIDC issuer at ${url}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
  if (!res.ok) throw new ConfigError(`The OIDC issuer answered ${res.status} at ${url}`);
  const doc = (await res.json().catch(() => ({}))) as { jwks_uri?: string; issuer?: string };
  if (!doc.jwks_uri) throw new ConfigError(`The OIDC issuer's configuration at ${url} has no jwks_uri`);
  return new URL(doc.jwks_uri);
}
