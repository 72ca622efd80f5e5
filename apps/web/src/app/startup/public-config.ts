import { publicConfigSchema, type PublicConfig } from '@fleetlink/contract';
import { useQuery } from '@tanstack/react-query';

export const PUBLIC_CONFIG_URL = '/api/config';
const PUBLIC_CONFIG_KEY = ['public-config'];

/**
 * Loads where the identity provider is. It is fetched before anyone is signed in, so it goes around
 * the API client (no token, and failures surface on the startup error screen rather than as toasts).
 */
export async function fetchPublicConfig(fetchImpl: typeof fetch = fetch): Promise<PublicConfig> {
  let response: Response;
  try {
    response = await fetchImpl(PUBLIC_CONFIG_URL, { headers: { Accept: 'application/json' } });
  } catch (error) {
    throw new Error(`The console server could not be reached (${(error as Error).message}).`);
  }
  if (!response.ok) {
    throw new Error(`The console server answered ${response.status} for its sign-in configuration.`);
  }
  const parsed = publicConfigSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new Error('The console server sent an invalid sign-in configuration.');
  return parsed.data;
}

/** The configuration, loaded once at startup (Startup waits for it, so it is there for every page). */
export function usePublicConfig() {
  return useQuery({ queryKey: PUBLIC_CONFIG_KEY, queryFn: () => fetchPublicConfig(), staleTime: Infinity });
}
