import { SESSION_HINT_COOKIE } from '@fleetlink/contract/web-paths';
import { deleteCookie, readCookie, writeCookie } from '../cookies/cookies';

// What the cookie means is said where it is defined (web-paths.ts): the console server reads it too.
export { SESSION_HINT_COOKIE };

export const hasSessionHint = (): boolean => readCookie(SESSION_HINT_COOKIE) === '1';

export function rememberSession(signedIn: boolean): void {
  if (signedIn) writeCookie(SESSION_HINT_COOKIE, '1');
  else deleteCookie(SESSION_HINT_COOKIE);
}
