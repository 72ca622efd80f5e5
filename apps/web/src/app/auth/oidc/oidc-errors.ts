/**
 * The provider answered with an error (RFC 6749 §4.1.2.1 on a redirect, §5.2 from the token
 * endpoint; OIDC Core 3.1.2.6 for prompt=none): its code is kept as `error`, which is how the
 * console tells "nobody is signed in" and "renewal refused" from a provider that could not be reached
 * (signin-errors.ts, renewal-failure.ts).
 */
export class ErrorResponse extends Error {
  override readonly name = 'ErrorResponse';
  readonly error: string;
  readonly error_description: string | undefined;

  constructor({ error, error_description }: { error: string; error_description?: string | null }) {
    super(error_description || error);
    this.error = error;
    this.error_description = error_description ?? undefined;
  }
}

/** The provider did not answer in time (the hidden sign-in frame). */
export class ErrorTimeout extends Error {
  override readonly name = 'ErrorTimeout';
}

/**
 * An answer of the provider that is not a success, as an error: its error code when it sent one (a
 * token endpoint's 400), else its status, as in 'Bad Request (400)'.
 */
export async function answerError(response: Response): Promise<Error> {
  const body = (await response.json().catch(() => null)) as { error?: unknown; error_description?: unknown } | null;
  if (body && typeof body.error === 'string') {
    return new ErrorResponse({ error: body.error, error_description: typeof body.error_description === 'string' ? body.error_description : undefined });
  }
  return new Error(`${response.statusText || 'Error'} (${response.status})`);
}
