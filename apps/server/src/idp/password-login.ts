import { createHash, randomBytes } from 'node:crypto';

export interface LoginTokens {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  expires_in: number;
}

/** A request as a browser makes it: the jar's cookies sent and the answer's kept; redirects are answered, not followed. */
export async function fetchWithCookies(url: URL, jar: Map<string, string>, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
  });
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';');
    const i = pair.indexOf('=');
    jar.set(pair.slice(0, i), pair.slice(i + 1));
  }
  return res;
}

/** The SPA's authorization request (code flow, PKCE S256); `verifier` redeems the code it ends with. */
export function authorizationRequest(base: string, clientId: string, params: Record<string, string>): { url: string; verifier: string } {
  const verifier = randomBytes(72).toString('base64url'); // 96 characters, as the SPA uses
  const auth = new URL(`${base}/idp/auth`);
  auth.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: `${base}/auth/callback`,
    response_type: 'code',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...params,
  }).toString();
  return { url: auth.href, verifier };
}

/** A form of the provider's pages, as a browser posts it. */
export const formPost = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

/** The provider's sign-in form. */
export const signInForm = (login: string, password: string): RequestInit => formPost({ login, password });

/**
 * Signs in to the built-in provider the way a browser does (authorization code + PKCE through its
 * sign-in form), for scripts and tests that need a real token without a browser.
 */
export async function passwordLogin(opts: {
  consoleUrl: string;
  email: string;
  password: string;
  clientId?: string;
  /** The provider's cookies (its session among them), kept here when a caller goes on with the session. */
  jar?: Map<string, string>;
  /**
   * The second factor's code, when the account has one or must set one up (`setupSecret`, the new
   * secret the setting-up page shows, is then given to make the code from).
   */
  secondFactor?: (step: { setupSecret: string | null }) => Promise<string> | string;
}): Promise<LoginTokens & { recoveryCodes?: string[] }> {
  const base = opts.consoleUrl.replace(/\/$/, '');
  const clientId = opts.clientId ?? 'fleetlink-console';
  const redirectUri = `${base}/auth/callback`;
  const jar = opts.jar ?? new Map<string, string>();
  const go = (url: string, init?: RequestInit) => fetchWithCookies(new URL(url, base), jar, init);
  const location = (res: Response) => {
    const loc = res.headers.get('location');
    if (!loc) throw new Error(`Sign-in failed: expected a redirect, got HTTP ${res.status}`);
    return loc;
  };

  const auth = authorizationRequest(base, clientId, { scope: 'openid profile email', state: randomBytes(8).toString('hex') });
  const interaction = location(await go(auth.url));
  const uid = interaction.split('/').pop();
  const submitted = await go(`/idp/interaction/${uid}/login`, signInForm(opts.email, opts.password));
  if (submitted.status === 401 || submitted.status === 400) throw new Error('Sign-in failed: invalid email or password.');
  if (submitted.status === 429) {
    // The sign-in page's own words: which limit, and how long to wait.
    const alert = /role="alert">([^<]*)</.exec(await submitted.text())?.[1];
    throw new Error(`Sign-in refused: ${alert ?? `too many failed sign-ins; try again after ${submitted.headers.get('retry-after')} s.`}`);
  }
  let answer = submitted;
  let recoveryCodes: string[] | undefined;
  if (submitted.status === 200) {
    // A second step: a code, or setting the app up (then its recovery codes, and on).
    const page = await submitted.text();
    if (!opts.secondFactor) throw new Error('Sign-in needs a second factor: the account has two-factor authentication.');
    const setupSecret = /<code>([A-Z2-7]+)<\/code>/.exec(page)?.[1] ?? null;
    const step = setupSecret ? 'two-factor-setup' : 'second-factor';
    answer = await go(`/idp/interaction/${uid}/${step}`, formPost({ code: await opts.secondFactor({ setupSecret }) }));
    if (answer.status === 200 && setupSecret) {
      recoveryCodes = [...(await answer.text()).matchAll(/<li>([a-z0-9-]+)<\/li>/g)].map((m) => m[1]!);
      answer = await go(`/idp/interaction/${uid}/continue`, { method: 'POST' });
    }
    if (answer.status === 401 || answer.status === 400) throw new Error('Sign-in failed: the second factor was not right.');
    if (answer.status === 429) throw new Error(`Sign-in refused: too many wrong codes; try again after ${answer.headers.get('retry-after')} s.`);
  }
  let next = location(answer);
  for (let hops = 0; !next.startsWith(redirectUri) && hops < 5; hops++) next = location(await go(next));
  const code = new URL(next).searchParams.get('code');
  if (!code) throw new Error(`Sign-in failed: ${new URL(next).searchParams.get('error_description') ?? 'no code returned'}`);

  const tokenRes = await fetch(`${base}/idp/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId, code_verifier: auth.verifier }),
  });
  const tokens = (await tokenRes.json()) as LoginTokens & { error_description?: string };
  if (!tokenRes.ok) throw new Error(`Token request failed: ${tokens.error_description ?? tokenRes.status}`);
  return recoveryCodes ? { ...tokens, recoveryCodes } : tokens;
}
