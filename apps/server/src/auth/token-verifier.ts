import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, errors as joseErrors, jwtVerify, type JWK, type JWTHeaderParameters, type JWTPayload } from 'jose';
import { ConfigError } from '../env.js';
import { principalFromClaims, type ClaimReading, type Principal } from './principal.js';

export interface TokenVerifier {
  verify(token: string): Promise<Principal>;
}

export class InvalidTokenError extends Error {}

interface VerifierOptions extends ClaimReading {
  issuer: string;
  /** Expected `aud`; undefined only when the operator turned the check off (`OIDC_AUDIENCE=none`). */
  audience?: string;
  /** The console's own client id: a token whose audience is this client is its ID token. */
  clientId: string;
  /** Keys of the built-in provider, verified in-process; otherwise fetched from the issuer's JWKS. */
  localJwks?: { keys: JWK[] };
}

const NOT_AN_ACCESS_TOKEN = 'This token is not an access token: send the access token, not the ID token.';

/**
 * Checks signature (issuer JWKS), issuer, audience and expiry of a bearer access token, and that it
 * is an access token at all: ID tokens carry the same signature, issuer and claims.
 */
export async function createTokenVerifier(opts: VerifierOptions): Promise<TokenVerifier> {
  const keys = opts.localJwks ? createLocalJWKSet(opts.localJwks) : createRemoteJWKSet(await discoverJwksUri(opts.issuer));
  // A page sends the same token with every request: its signature is checked once, and the person
  // it names is kept until it expires (issue 69). Only tokens found valid are kept; at most
  // VERIFIED_MAX of them, the oldest dropped first.
  const verified = new Map<string, { principal: Principal; expiresAt: number }>();
  return {
    async verify(token) {
      const known = verified.get(token);
      if (known && Date.now() < known.expiresAt) return known.principal;
      verified.delete(token);
      const principal = await check(token);
      if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
      verified.set(token, { principal, expiresAt: expiryOf(token) });
      return principal;
    },
  };

  async function check(token: string): Promise<Principal> {
    try {
      const { payload, protectedHeader } = await jwtVerify(token, keys, {
        issuer: opts.issuer,
        // A token without an expiry would open the API for ever.
        requiredClaims: ['exp', 'sub'],
        clockTolerance: 5,
      });
      // The kind first, then the audience: an ID token gets the answer that says what to send.
      if (!isAccessToken(protectedHeader, payload, opts)) throw new InvalidTokenError(NOT_AN_ACCESS_TOKEN);
      if (opts.audience !== undefined && !audiencesOf(payload).includes(opts.audience)) {
        throw new InvalidTokenError(`The access token is not for this API: its audience must include ${opts.audience}.`);
      }
      return principalFromClaims(payload, opts);
    } catch (err) {
      if (err instanceof InvalidTokenError) throw err;
      if (err instanceof joseErrors.JWTExpired) throw new InvalidTokenError('The access token has expired. Sign in again.');
      if (err instanceof joseErrors.JWTClaimValidationFailed && err.reason === 'missing') {
        throw new InvalidTokenError(`The access token is not valid: it has no "${err.claim}" claim.`);
      }
      throw new InvalidTokenError('The access token is not valid.');
    }
  }
}

/** Valid tokens whose check is remembered, per console. */
const VERIFIED_MAX = 10_000;

/** When a token found valid stops being so (its `exp`, which the check required), in ms. */
function expiryOf(token: string): number {
  const { exp } = decodeJwt(token);
  return Number(exp) * 1000;
}

/**
 * Which kind of token this is, from the first sign the issuer gives:
 * - the header's `typ` `at+jwt` (RFC 9068 access tokens; the built-in provider sets it);
 * - Keycloak's `typ` claim: `Bearer` for access tokens, `ID`, `Refresh`, `Logout` for the others;
 * - otherwise the audience: an ID token's audience is the client it was issued to, the console's
 *   own client, where an access token names the API (unless the operator made the two the same).
 */
function isAccessToken(header: JWTHeaderParameters, payload: JWTPayload, opts: Pick<VerifierOptions, 'audience' | 'clientId'>): boolean {
  const headerType = header.typ?.toLowerCase().replace(/^application\//, '');
  if (headerType === 'at+jwt') return true;
  if (typeof payload.typ === 'string') return payload.typ.toLowerCase() === 'bearer';
  if (opts.audience === opts.clientId) return true;
  return !audiencesOf(payload).includes(opts.clientId);
}

const audiencesOf = (payload: JWTPayload) => (Array.isArray(payload.aud) ? payload.aud : typeof payload.aud === 'string' ? [payload.aud] : []);

/** Where an OIDC issuer serves its discovery document (OpenID Connect Discovery 1.0, §4). */
export const discoveryUrlOf = (issuer: string): string => `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;

/** Reads the issuer's discovery document once at start: an unreachable issuer stops the start. */
async function discoverJwksUri(issuer: string): Promise<URL> {
  const url = discoveryUrlOf(issuer);
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
