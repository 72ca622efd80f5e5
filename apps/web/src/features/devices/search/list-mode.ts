import { useCallback, useState } from 'react';
import { useSession } from '../../../app/auth/useSession';
import { readCookie, userCookieName, writeCookie } from '../../../app/cookies/cookies';

/** SPEC §9: list or grid, remembered in cookie `_dlm` for 7 days, grid by default. */
export type ListMode = 'list' | 'grid';
export const LIST_MODE_COOKIE = '_dlm';
export const LIST_MODE_DAYS = 7;

export const parseListMode = (value: string | undefined): ListMode => (value === 'list' ? 'list' : 'grid');

export function useListMode(): [ListMode, (mode: ListMode) => void] {
  const userId = useSession().details?.subject ?? 'anonymous';
  const name = userCookieName(LIST_MODE_COOKIE, userId);
  const [mode, setMode] = useState<ListMode>(() => parseListMode(readCookie(name)));
  const change = useCallback(
    (next: ListMode) => {
      writeCookie(name, next, LIST_MODE_DAYS);
      setMode(next);
    },
    [name],
  );
  return [mode, change];
}
