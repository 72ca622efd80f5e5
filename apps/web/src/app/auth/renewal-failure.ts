import { isSignedOutAnswer } from './signin-errors';

/**
 * SPEC §8 'Failed token refresh with status 400 clears the token': how a failed renewal is taken.
 *
 * - `rejected`: the provider answered and said no. A token endpoint answers 400 with one of
 *   RFC 6749 §5.2's codes (the refresh token expired or was revoked: `invalid_grant`), or a hidden
 *   iframe renewal found no provider session (OIDC Core 3.1.2.6). Renewing again cannot help: the
 *   session is cleared and the user signs in.
 * - `unreachable`: anything else (network down, a timeout, the provider's 5xx): the tokens may still
 *   be good, so the session is kept and the renewal retried until the access token really expires.
 *
 * The OIDC client (oidc/oidc-errors.ts) keeps the provider's error code but not the HTTP status, so the status is read off
 * the code (RFC 6749 §5.2 gives these codes status 400, `invalid_client` 400 or 401), or off the
 * message of an answer that carried no code ('Bad Request (400)').
 */
export type RenewalFailure = 'rejected' | 'unreachable';

const REJECTING_CODES = new Set([
  // RFC 6749 §5.2, the token endpoint's 400 answers.
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
]);

export function classifyRenewalFailure(error: unknown): RenewalFailure {
  if (!error || typeof error !== 'object') return 'unreachable';
  const { error: code, message } = error as { error?: unknown; message?: unknown };
  // A hidden iframe renewal that found no provider session is refused just the same.
  if ((typeof code === 'string' && REJECTING_CODES.has(code)) || isSignedOutAnswer(error)) return 'rejected';
  if (typeof code !== 'string' && typeof message === 'string' && /\(400\)/.test(message)) return 'rejected';
  return 'unreachable';
}
