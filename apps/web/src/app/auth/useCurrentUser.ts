import type { Me } from '@fleetlink/contract';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/useApi';
import { usePainted } from '../startup/after-paint';

/**
 * The signed-in user as the API sees it. Loading it on start also lets the server record the user
 * (first and last seen), and confirms the token is accepted by the API, not only by the browser.
 * Asked once the page has been painted: the page's own questions come first.
 */
export function useCurrentUser(enabled: boolean) {
  const api = useApi();
  const painted = usePainted();
  return useQuery({
    queryKey: ['me'],
    queryFn: ({ signal }) => api.get<Me>('/api/me', signal),
    enabled: enabled && painted,
    staleTime: 5 * 60_000,
  });
}
