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

function fieldOf(value: unknown, field: 'message' | 'name'): string {
  const found = value && typeof value === 'object' ? (value as Record<string, unknown>)[field] : undefined;
  return typeof found === 'string' ? found : '';
}

/** A sentence for the startup error screen, keeping the technical detail separate. */
export function describeSigninFailure(error: unknown): { summary: string; detail: string } {
  const detail = typeof error === 'string' ? error : fieldOf(error, 'message');
  const name = fieldOf(error, 'name');
  // The pages' sign-in state (AuthContext.tsx) gives a failed redirect as a plain object, keeping the original as innerError.
  const inner = error && typeof error === 'object' ? (error as { innerError?: unknown }).innerError : undefined;
  if (name === 'ErrorTimeout' || /timed? ?out/i.test(detail)) {
    return { summary: 'The identity provider did not answer in time.', detail };
  }
  if (error instanceof TypeError || inner instanceof TypeError || /fetch|network/i.test(detail)) {
    return { summary: 'The identity provider could not be reached.', detail };
  }
  return { summary: 'Signing in failed.', detail };
}
