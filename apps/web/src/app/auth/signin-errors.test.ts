import { describe, expect, it } from 'vitest';
import { describeSigninFailure, isSignedOutAnswer } from './signin-errors';

describe('isSignedOutAnswer', () => {
  it('recognises the prompt=none answers of a provider without a session', () => {
    expect(isSignedOutAnswer({ error: 'login_required' })).toBe(true);
    expect(isSignedOutAnswer(Object.assign(new Error('x'), { error: 'interaction_required' }))).toBe(true);
  });

  it('treats everything else as a failure', () => {
    expect(isSignedOutAnswer({ error: 'invalid_client' })).toBe(false);
    expect(isSignedOutAnswer(new TypeError('Failed to fetch'))).toBe(false);
    expect(isSignedOutAnswer(null)).toBe(false);
    expect(isSignedOutAnswer('login_required')).toBe(false);
  });
});

describe('describeSigninFailure', () => {
  it('explains an unreachable provider', () => {
    expect(describeSigninFailure(new TypeError('Failed to fetch'))).toEqual({
      summary: 'The identity provider could not be reached.',
      detail: 'Failed to fetch',
    });
  });

  it('explains a timeout', () => {
    const timeout = Object.assign(new Error('IFrame timed out without a response'), { name: 'ErrorTimeout' });
    expect(describeSigninFailure(timeout).summary).toBe('The identity provider did not answer in time.');
  });

  it('reads the plain error objects of the pages\' sign-in state', () => {
    const wrapped = { name: 'Error', message: 'invalid_grant', source: 'signinRedirect', innerError: new Error('x') };
    expect(describeSigninFailure(wrapped)).toEqual({ summary: 'Signing in failed.', detail: 'invalid_grant' });
  });

  it('falls back to a generic summary with the message as detail', () => {
    expect(describeSigninFailure(new Error('invalid_client'))).toEqual({
      summary: 'Signing in failed.',
      detail: 'invalid_client',
    });
  });
});
