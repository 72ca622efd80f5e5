import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';

/** A browser's cookies for the provider: what the sign-in set, sent back on every request. */
export class ProviderBrowser {
  readonly jar = new Map<string, string>();
  constructor(private readonly base: string) {}

  /** A request with the cookies; redirects are answered, not followed. */
  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(new URL(path, this.base), {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      this.jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
    return res;
  }

  /** Opens the sign-in form as the SPA's Sign in does; answers the form's action. */
  async openSignIn(): Promise<string> {
    const res = await this.fetch(this.authorizationUrl({ scope: 'openid profile email' }));
    const uid = new URL(res.headers.get('location')!, this.base).pathname.split('/').pop();
    return `/idp/interaction/${uid}/login`;
  }

  /** Posts the sign-in form. */
  submit(action: string, login: string, password: string): Promise<Response> {
    return this.fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ login, password }).toString(),
    });
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

  private authorizationUrl(extra: Record<string, string>): string {
    const auth = new URL(`${this.base}/idp/auth`);
    auth.search = new URLSearchParams({
      client_id: 'fleetlink-console',
      redirect_uri: `${this.base}/auth/callback`,
      response_type: 'code',
      code_challenge: createHash('sha256').update(randomBytes(48).toString('base64url')).digest('base64url'),
      code_challenge_method: 'S256',
      ...extra,
    }).toString();
    return auth.href;
  }
}
