import { useCallback, useSyncExternalStore } from 'react';
import { useSession } from '../../../app/auth/useSession';
import { readCookie, userCookieName, writeCookie } from '../../../app/cookies/cookies';
import { forget, parseRecent, recordAccess, RECENT_COOKIE, RECENT_DAYS, serializeRecent, type RecentDevice } from './recent-devices';

// The cookie is the store; listeners let the Devices menu and the landing page follow a visit at once.
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const notify = () => listeners.forEach((l) => l());

/** Recent devices of the signed-in user (cookie `_dr2_<user id>`), newest first. */
export function useRecentDevices() {
  const userId = useSession().details?.subject;
  const name = userId ? userCookieName(RECENT_COOKIE, userId) : undefined;
  // The raw cookie value is the snapshot: stable between changes, so React re-renders only on change.
  const raw = useSyncExternalStore(subscribe, () => (name ? readCookie(name) : undefined) ?? '');
  const devices = parseRecent(raw || undefined);

  const update = useCallback(
    (change: (list: RecentDevice[]) => RecentDevice[]) => {
      if (!name) return;
      writeCookie(name, serializeRecent(change(parseRecent(readCookie(name)))), RECENT_DAYS);
      notify();
    },
    [name],
  );
  const record = useCallback((d: Omit<RecentDevice, 'lastAccessed'>) => update((list) => recordAccess(list, d)), [update]);
  const remove = useCallback((id: string) => update((list) => forget(list, id)), [update]);
  return { devices, record, remove };
}
