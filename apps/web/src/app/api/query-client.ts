import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Every failed call already raised an alert toast; silent retries would raise it again.
        retry: false,
        // Screens that must stay fresh (e.g. device status) set their own refetch intervals.
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
}
