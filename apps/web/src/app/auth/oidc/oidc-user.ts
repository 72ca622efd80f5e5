import { decodeJwtPayload } from '../jwt-payload';

/** The claims of the ID token the console shows (name, email, username); the rest are kept as sent. */
export interface Profile {
  sub: string;
  name?: string;
  email?: string;
  preferred_username?: string;
  [claim: string]: unknown;
}

/** A token endpoint's successful answer (RFC 6749 §5.1, OIDC Core 3.1.3.3). */
export interface TokenAnswer {
  access_token: string;
  token_type?: string;
  expires_in?: number;
  refresh_token?: string;
  id_token?: string;
  scope?: string;
}

/** The signed-in user: tokens in memory only (never in any storage a script could read), and who they are. */
export class OidcUser {
  constructor(
    readonly access_token: string,
    readonly refresh_token: string | undefined,
    readonly id_token: string | undefined,
    /** Seconds since the epoch; undefined when the provider gave no lifetime. */
    readonly expires_at: number | undefined,
    readonly profile: Profile,
    /** What the sign-in carried through the provider (the page to return to). */
    readonly state?: unknown,
  ) {}

  /** Seconds left before the access token expires. */
  get expires_in(): number | undefined {
    return this.expires_at === undefined ? undefined : this.expires_at - Date.now() / 1000;
  }

  get expired(): boolean {
    const left = this.expires_in;
    return left !== undefined && left <= 0;
  }

  /**
   * The user after a token answer. A renewal's answer may leave out the refresh token (it is kept)
   * and the ID token (the profile is kept); one that names someone else is refused.
   */
  static from(answer: TokenAnswer, previous?: OidcUser, state?: unknown, nonce?: string): OidcUser {
    if (typeof answer.access_token !== 'string' || !answer.access_token) throw new Error('The identity provider sent no access token.');
    let profile = previous?.profile;
    if (answer.id_token) {
      // Read for display only: the API checks every access token itself.
      const claims = decodeJwtPayload(answer.id_token);
      if (!claims) throw new Error('The identity provider sent an ID token that is not a JWT.');
      if (typeof claims.sub !== 'string') throw new Error('The identity provider sent an ID token without a subject.');
      if (nonce !== undefined && claims.nonce !== nonce) throw new Error('The ID token does not belong to this sign-in (its nonce differs).');
      if (previous && claims.sub !== previous.profile.sub) throw new Error('The renewed ID token names another user.');
      profile = claims as Profile;
    }
    if (!profile) throw new Error('The identity provider sent no ID token.');
    const expiresAt = typeof answer.expires_in === 'number' ? Math.floor(Date.now() / 1000) + answer.expires_in : undefined;
    return new OidcUser(
      answer.access_token,
      answer.refresh_token ?? previous?.refresh_token,
      answer.id_token ?? previous?.id_token,
      expiresAt,
      profile,
      state ?? previous?.state,
    );
  }
}
