import type { Me } from '@fleetlink/contract';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/useApi';

/**
 * The signed-in user as the API sees it. Loading it on start also lets the server record the user
 * (first and last seen), and confirms the token is accepted by the API, not only by the browser.
 */
export function useCurrentUser(enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: ['me'],
    queryFn: ({ signal }) => api.get<Me>('/api/me', signal),
    enabled,
    staleTime: 5 * 60_000,
  });
}
