import { answerError, ErrorResponse } from './oidc-errors';
import { OidcUser, type TokenAnswer } from './oidc-user';
import { canFollowInPage, followInPage } from './silent-fetch';
import { navigateHiddenFrame } from './silent-frame';
import { clearStaleSigninStates, codeChallenge, newSigninState, saveSigninState, takeSigninState, type SigninState } from './signin-state';

export interface OidcSettings {
  authority: string;
  client_id: string;
  scope: string;
  redirect_uri: string;
  /** Where the hidden frame's sign-in check lands. */
  silent_redirect_uri: string;
  post_logout_redirect_uri: string;
  /** The access token is renewed this many seconds before it expires. */
  renew_before_seconds: number;
  /** How long the provider is waited for: each request to it, and the hidden frame's answer. */
  provider_timeout_seconds: number;
  /** An unfinished sign-in older than this is dropped. */
  stale_state_seconds: number;
}

/** What the console reads of the provider's discovery document (OIDC Discovery 1.0 §3). */
interface ProviderMetadata {
  authorization_endpoint: string;
  token_endpoint: string;
  end_session_endpoint?: string;
}

type Listener<T> = (value: T) => void;

/** setTimeout takes at most 2^31-1 ms (about 24 days); a longer delay would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const after = (seconds: number, run: () => void) => setTimeout(run, Math.min(Math.max(0, seconds) * 1000, MAX_TIMER_MS));

/** A set of listeners; adding one returns how to remove it. */
class Listeners<T> {
  private readonly set = new Set<Listener<T>>();
  add(listener: Listener<T>): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }
  emit(value: T): void {
    for (const listener of [...this.set]) listener(value);
  }
}

/**
 * The console's OpenID Connect client (a public client: authorization code flow with PKCE, RFC 7636):
 * it sends the browser to sign in, completes the provider's answer, checks in a hidden frame
 * (prompt=none; by a request when the provider is on the console's origin) whether the provider's
 * session is alive, renews the access token before it expires (with the refresh token, else that
 * check) and signs out at the provider (RP-initiated logout). Tokens are kept in memory only. It
 * replaces oidc-client-ts, whose 15 kB (compressed) were a twelfth of the device list's first load
 * (issue 68) for the handful of these steps the console uses.
 */
export class OidcClient {
  private user: OidcUser | null = null;
  private metadata: Promise<ProviderMetadata> | undefined;
  private renewal: Promise<OidcUser> | undefined;
  private renewTimer: ReturnType<typeof setTimeout> | undefined;
  private expiryTimer: ReturnType<typeof setTimeout> | undefined;

  readonly events = {
    userChanged: new Listeners<OidcUser | null>(),
    silentRenewError: new Listeners<unknown>(),
    accessTokenExpired: new Listeners<void>(),
  };

  constructor(readonly settings: OidcSettings) {}

  /** The signed-in user, or null. */
  get current(): OidcUser | null {
    return this.user;
  }

  async getUser(): Promise<OidcUser | null> {
    return this.user;
  }

  /** Forgets the user (the console's guard then sends them to sign in). */
  async removeUser(): Promise<void> {
    this.setUser(null);
  }

  /**
   * Sends the browser to the provider's sign-in; it comes back to the callback page with `state`'s
   * data. The sign-in's state waits in localStorage, the page being left meanwhile, where earlier
   * ones never finished are dropped now: not at every page load, whose first use of localStorage
   * blocks on the browser reading it from disk (issue 68).
   */
  async signinRedirect({ state, redirectMethod = 'assign' }: { state?: unknown; redirectMethod?: 'assign' | 'replace' } = {}): Promise<void> {
    const request = await this.authorizationRequest(this.settings.redirect_uri, state);
    clearStaleSigninStates(this.settings.stale_state_seconds);
    saveSigninState(request.state);
    window.location[redirectMethod](request.url);
    // The page is on its way out: nothing after this should run.
    await new Promise(() => undefined);
  }

  /** Completes the provider's redirect back to the callback page: the code is exchanged for tokens. */
  async signinCallback(url = window.location.href): Promise<OidcUser> {
    return this.completeSignin(url, (id) => takeSigninState(id));
  }

  /**
   * Renews the session without any page the user sees: with the refresh token when there is one,
   * else by asking the provider whether its session is alive (prompt=none), in a hidden frame or,
   * on the console's origin, by a request.
   * Calls made while one is under way share it.
   */
  signinSilent(): Promise<OidcUser> {
    this.renewal ??= this.renew().finally(() => {
      this.renewal = undefined;
    });
    return this.renewal;
  }

  /** Forgets the user and ends the session at the provider too, which sends the browser back to the console. */
  async signoutRedirect(): Promise<void> {
    const idToken = this.user?.id_token;
    const { end_session_endpoint } = await this.providerMetadata();
    this.setUser(null);
    if (!end_session_endpoint) {
      window.location.assign(this.settings.post_logout_redirect_uri);
      return;
    }
    const url = new URL(end_session_endpoint);
    if (idToken) url.searchParams.set('id_token_hint', idToken);
    url.searchParams.set('client_id', this.settings.client_id);
    url.searchParams.set('post_logout_redirect_uri', this.settings.post_logout_redirect_uri);
    window.location.assign(url.href);
  }

  private async renew(): Promise<OidcUser> {
    const previous = this.user;
    if (previous?.refresh_token) {
      const answer = await this.tokenRequest({ grant_type: 'refresh_token', refresh_token: previous.refresh_token, client_id: this.settings.client_id });
      return this.setUser(OidcUser.from(answer, previous));
    }
    const { silent_redirect_uri: redirectUri, provider_timeout_seconds: timeout } = this.settings;
    // Answered to this page, so its state stays in memory: once, for this check only.
    const { url, state } = await this.authorizationRequest(redirectUri, undefined, 'none');
    const answerUrl = canFollowInPage(url, redirectUri) ? await followInPage(url, redirectUri, timeout) : await navigateHiddenFrame(url, timeout);
    return this.completeSignin(answerUrl, (id) => (id === state.id ? state : undefined));
  }

  private async authorizationRequest(redirectUri: string, data: unknown, prompt?: 'none'): Promise<{ url: string; state: SigninState }> {
    const { authorization_endpoint } = await this.providerMetadata();
    const state = newSigninState(redirectUri, data);
    const url = new URL(authorization_endpoint);
    const params = {
      client_id: this.settings.client_id,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: this.settings.scope,
      state: state.id,
      nonce: state.nonce,
      code_challenge: await codeChallenge(state.verifier),
      code_challenge_method: 'S256',
      ...(prompt ? { prompt } : {}),
    };
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return { url: url.href, state };
  }

  /**
   * The provider's answer on a redirect URI (the callback page or the silent check's), completed;
   * `take` finds the sign-in it answers, once.
   */
  private async completeSignin(answerUrl: string, take: (id: string) => SigninState | undefined): Promise<OidcUser> {
    const params = new URL(answerUrl).searchParams;
    const signin = take(params.get('state') ?? '');
    if (!signin) throw new Error('No matching state found in storage: this sign-in was completed already or has expired.');
    const error = params.get('error');
    if (error) throw new ErrorResponse({ error, error_description: params.get('error_description') });
    const code = params.get('code');
    if (!code) throw new Error('The identity provider sent no authorization code.');
    const answer = await this.tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: signin.redirect_uri,
      code_verifier: signin.verifier,
      client_id: this.settings.client_id,
    });
    return this.setUser(OidcUser.from(answer, undefined, signin.data, signin.nonce));
  }

  private async tokenRequest(form: Record<string, string>): Promise<TokenAnswer> {
    const { token_endpoint } = await this.providerMetadata();
    // A form body and no header of its own: a simple request, which a provider elsewhere answers without a preflight.
    const response = await fetch(token_endpoint, { method: 'POST', body: new URLSearchParams(form), signal: this.deadline() });
    if (!response.ok) throw await answerError(response);
    return (await response.json()) as TokenAnswer;
  }

  private providerMetadata(): Promise<ProviderMetadata> {
    this.metadata ??= this.loadMetadata().catch((error: unknown) => {
      // Not kept: the next sign-in asks again.
      this.metadata = undefined;
      throw error;
    });
    return this.metadata;
  }

  private async loadMetadata(): Promise<ProviderMetadata> {
    // As the console's index.html preloads it (a plain CORS GET without credentials of another site): the preload is used.
    const response = await fetch(`${this.settings.authority.replace(/\/$/, '')}/.well-known/openid-configuration`, { signal: this.deadline() });
    if (!response.ok) throw await answerError(response);
    const metadata = (await response.json()) as Partial<ProviderMetadata>;
    if (typeof metadata.authorization_endpoint !== 'string' || typeof metadata.token_endpoint !== 'string') {
      throw new Error('The identity provider\'s discovery document names no authorization or token endpoint.');
    }
    return metadata as ProviderMetadata;
  }

  /** A provider that does not answer fails the request (a TimeoutError), rather than holding a renewal every later one waits on. */
  private deadline(): AbortSignal {
    return AbortSignal.timeout(this.settings.provider_timeout_seconds * 1000);
  }

  private setUser<T extends OidcUser | null>(user: T): T {
    this.user = user;
    clearTimeout(this.renewTimer);
    clearTimeout(this.expiryTimer);
    const left = user?.expires_in;
    if (left !== undefined) {
      // Renewed while it still has its minimum validity left; a failed renewal is the console's to
      // handle (useSessionRenewal.ts), and expiry ends the session.
      this.renewTimer = after(left - this.settings.renew_before_seconds, () => {
        this.signinSilent().catch((error: unknown) => this.events.silentRenewError.emit(error));
      });
      this.expiryTimer = after(left, () => this.events.accessTokenExpired.emit());
    }
    this.events.userChanged.emit(user);
    return user;
  }
}
