import { deleteCookie, readCookie, writeCookie } from '../cookies/cookies';

/**
 * "Someone signed in with this browser and has not signed out since": a session cookie holding no
 * identity, only so the bootstrap can load the console while it checks the sign-in with the provider,
 * rather than after. Without it (a first visit, after signing out) the console's code waits for the
 * answer, so a signed-out visitor is sent to sign in having loaded the bootstrap only.
 */
export const SESSION_HINT_COOKIE = '_fls';

export const hasSessionHint = (): boolean => readCookie(SESSION_HINT_COOKIE) === '1';

export function rememberSession(signedIn: boolean): void {
  if (signedIn) writeCookie(SESSION_HINT_COOKIE, '1');
  else deleteCookie(SESSION_HINT_COOKIE);
}
