import { expect } from 'vitest';
import { authorizationRequest, fetchWithCookies, signInForm } from '../idp/password-login.js';

/** A browser's cookies for the provider: what the sign-in set, sent back on every request. */
export class ProviderBrowser {
  readonly jar = new Map<string, string>();
  constructor(private readonly base: string) {}

  /** A request with the cookies; redirects are answered, not followed. */
  fetch(path: string, init?: RequestInit): Promise<Response> {
    return fetchWithCookies(new URL(path, this.base), this.jar, init);
  }

  /** Opens the sign-in form as the SPA's Sign in does; answers the form's action. */
  async openSignIn(): Promise<string> {
    const res = await this.fetch(this.authorizationUrl({ scope: 'openid profile email' }));
    const uid = new URL(res.headers.get('location')!, this.base).pathname.split('/').pop();
    return `/idp/interaction/${uid}/login`;
  }

  /** Posts the sign-in form. */
  submit(action: string, login: string, password: string): Promise<Response> {
    return this.fetch(action, signInForm(login, password));
  }

  /** Whether the provider still knows this browser's sign-in: an authorization request with prompt=none. */
  async signedIn(): Promise<boolean> {
    let res = await this.fetch(this.authorizationUrl({ scope: 'openid', prompt: 'none' }));
    // oidc-provider resumes the request once before answering the client.
    for (let hops = 0; hops < 3 && !res.headers.get('location')?.startsWith(`${this.base}/auth/callback`); hops++) {
      res = await this.fetch(res.headers.get('location')!);
    }
    const answer = new URL(res.headers.get('location')!).searchParams;
    if (answer.get('code')) return true;
    expect(answer.get('error')).toBe('login_required');
    return false;
  }

  private authorizationUrl(params: Record<string, string>): string {
    return authorizationRequest(this.base, 'fleetlink-console', params).url;
  }
}
