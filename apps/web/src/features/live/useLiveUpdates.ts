import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useAuth } from '../../app/auth/AuthContext';
import { LiveCacheUpdater } from './apply-live-message';
import { LiveConnection } from './live-connection';

/**
 * The page's live updates (issue 61): one socket while signed in, its events applied to the query
 * cache. A renewed access token moves the socket to it; signing out closes it.
 */
export function useLiveUpdates(): void {
  const client = useQueryClient();
  const auth = useAuth();
  const token = auth.isAuthenticated ? auth.user?.access_token : undefined;
  const [updater] = useState(() => new LiveCacheUpdater(client));
  const connection = useRef<LiveConnection | undefined>(undefined);
  useEffect(() => {
    const c = new LiveConnection({
      origin: window.location.origin,
      onMessage: (m) => updater.apply(m),
      onReopened: () => updater.readEverythingAgain(),
    });
    connection.current = c;
    return () => {
      c.stop();
      connection.current = undefined;
      updater.dispose();
    };
  }, [updater]);
  useEffect(() => connection.current?.setToken(token), [token]);
}
