import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from './memory-storage.test-support';
import { answerError, ErrorResponse } from './oidc-errors';
import { OidcUser } from './oidc-user';
import { clearStaleSigninStates, codeChallenge, newSigninState, randomToken, saveSigninState, takeSigninState } from './signin-state';

/** An unsigned JWT with these claims: the console reads the ID token's claims, it never checks its signature (the API checks every access token). */
const jwt = (claims: Record<string, unknown>) =>
  ['{"alg":"none"}', JSON.stringify(claims)].map((part) => Buffer.from(part).toString('base64url')).join('.') + '.';

afterEach(() => vi.useRealTimers());

describe('PKCE', () => {
  it('derives the S256 challenge of RFC 7636 appendix B', async () => {
    expect(await codeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('makes verifiers of 43 base64url characters, each new', () => {
    const tokens = new Set(Array.from({ length: 100 }, randomToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('an unfinished sign-in', () => {
  it('is found once by its state id: a replayed answer finds nothing', () => {
    const storage = memoryStorage();
    const state = newSigninState('https://console.example/auth/callback', '/devices/search');
    saveSigninState(state, storage);
    expect(takeSigninState(state.id, storage)).toEqual(state);
    expect(takeSigninState(state.id, storage)).toBeUndefined();
    expect(takeSigninState('another', storage)).toBeUndefined();
  });

  it('is dropped once stale, leaving fresh ones and what is not the console\'s', () => {
    vi.useFakeTimers({ now: new Date('2026-11-30T12:00:00Z') });
    const storage = memoryStorage();
    const old = newSigninState('https://c/cb');
    saveSigninState(old, storage);
    storage.setItem('fleetlink.signin.broken', '{');
    storage.setItem('unrelated', 'kept');
    vi.setSystemTime(new Date('2026-11-30T13:00:01Z'));
    const fresh = newSigninState('https://c/cb');
    saveSigninState(fresh, storage);
    clearStaleSigninStates(3600, storage);
    expect(Object.keys(storage).sort()).toEqual([`fleetlink.signin.${fresh.id}`, 'unrelated']);
  });
});

describe('the signed-in user', () => {
  const idToken = jwt({ sub: 'u-1', name: 'Zoë Ünal', email: 'zoe@example.com', nonce: 'n-1' });

  it('reads the ID token\'s claims, UTF-8 included, and the token\'s lifetime', () => {
    vi.useFakeTimers({ now: new Date('2026-11-30T12:00:00Z') });
    const user = OidcUser.from({ access_token: 'a', refresh_token: 'r', id_token: idToken, expires_in: 30 }, undefined, '/devices', 'n-1');
    expect(user.profile.name).toBe('Zoë Ünal');
    expect(user.state).toBe('/devices');
    expect(user.expires_in).toBe(30);
    expect(user.expired).toBe(false);
    vi.advanceTimersByTime(30_000);
    expect(user.expired).toBe(true);
  });

  it('refuses an ID token of another sign-in (its nonce) or without a subject', () => {
    expect(() => OidcUser.from({ access_token: 'a', id_token: idToken }, undefined, undefined, 'n-2')).toThrow(/nonce/);
    expect(() => OidcUser.from({ access_token: 'a', id_token: jwt({ name: 'x' }) })).toThrow(/subject/);
    expect(() => OidcUser.from({ access_token: '', id_token: idToken })).toThrow(/no access token/);
    expect(() => OidcUser.from({ access_token: 'a' })).toThrow(/no ID token/);
    expect(() => OidcUser.from({ access_token: 'a', id_token: 'not-a-jwt' })).toThrow(/not a JWT/);
  });

  it('keeps the refresh token, the profile and the return page across a renewal that leaves them out', () => {
    const first = OidcUser.from({ access_token: 'a1', refresh_token: 'r1', id_token: idToken, expires_in: 30 }, undefined, '/jobs');
    const renewed = OidcUser.from({ access_token: 'a2', expires_in: 30 }, first);
    expect([renewed.access_token, renewed.refresh_token, renewed.profile.sub, renewed.state]).toEqual(['a2', 'r1', 'u-1', '/jobs']);
  });

  it('refuses a renewal that names someone else', () => {
    const first = OidcUser.from({ access_token: 'a1', id_token: idToken });
    expect(() => OidcUser.from({ access_token: 'a2', id_token: jwt({ sub: 'u-2' }) }, first)).toThrow(/another user/);
  });
});

describe('the provider\'s error answers', () => {
  it('keep the error code of a token endpoint\'s 400', async () => {
    const error = await answerError(new Response(JSON.stringify({ error: 'invalid_grant', error_description: 'grant request is invalid' }), { status: 400 }));
    expect(error).toBeInstanceOf(ErrorResponse);
    expect(error).toMatchObject({ error: 'invalid_grant', message: 'grant request is invalid' });
  });

  it('say the status of an answer without one', async () => {
    expect((await answerError(new Response('<html>', { status: 503, statusText: 'Service Unavailable' }))).message).toBe('Service Unavailable (503)');
    expect((await answerError(new Response('{}', { status: 400 }))).message).toBe('Error (400)');
  });
});
