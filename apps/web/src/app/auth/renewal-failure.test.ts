import { describe, expect, it } from 'vitest';
import { ErrorResponse, ErrorTimeout } from './oidc/oidc-errors';
import { classifyRenewalFailure } from './renewal-failure';

describe('classifyRenewalFailure (SPEC §8: a failed refresh with status 400 clears the token)', () => {
  it('takes the token endpoint\'s 400 answers as a refusal', () => {
    for (const error of ['invalid_grant', 'invalid_request', 'invalid_client', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope']) {
      expect(classifyRenewalFailure(new ErrorResponse({ error }))).toBe('rejected');
    }
    // A 400 whose body had no error code.
    expect(classifyRenewalFailure(new Error('Bad Request (400)'))).toBe('rejected');
  });

  it('takes a renewal without a provider session as a refusal', () => {
    expect(classifyRenewalFailure(new ErrorResponse({ error: 'login_required' }))).toBe('rejected');
  });

  it('keeps the session when the provider cannot be reached or fails', () => {
    expect(classifyRenewalFailure(new TypeError('Failed to fetch'))).toBe('unreachable');
    expect(classifyRenewalFailure(new ErrorTimeout('Network timed out'))).toBe('unreachable');
    expect(classifyRenewalFailure(new Error('Service Unavailable (503)'))).toBe('unreachable');
    expect(classifyRenewalFailure(new Error('Internal Server Error (500): {}'))).toBe('unreachable');
    expect(classifyRenewalFailure(new ErrorResponse({ error: 'temporarily_unavailable' }))).toBe('unreachable');
    expect(classifyRenewalFailure(new ErrorResponse({ error: 'server_error' }))).toBe('unreachable');
    expect(classifyRenewalFailure(undefined)).toBe('unreachable');
  });
});
