/**
 * Answers of a prompt=none authorization request that only mean "nobody is signed in at the
 * provider" (OIDC Core 3.1.2.6). They leave the user signed out; anything else is a real failure.
 */
const SIGNED_OUT_ERRORS = new Set([
  'login_required',
  'interaction_required',
  'consent_required',
  'account_selection_required',
]);

export function isSignedOutAnswer(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const code = (error as { error?: unknown }).error;
  return typeof code === 'string' && SIGNED_OUT_ERRORS.has(code);
}

/** A sentence for the startup error screen, keeping the technical detail separate. */
export function describeSigninFailure(error: unknown): { summary: string; detail: string } {
  const detail = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const name = error instanceof Error ? error.name : '';
  if (name === 'ErrorTimeout' || /timed? ?out/i.test(detail)) {
    return { summary: 'The identity provider did not answer in time.', detail };
  }
  if (error instanceof TypeError || /fetch|network/i.test(detail)) {
    return { summary: 'The identity provider could not be reached.', detail };
  }
  return { summary: 'Signing in failed.', detail };
}
