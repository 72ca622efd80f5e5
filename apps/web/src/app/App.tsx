import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { AuthSession } from './auth/AuthSession';
import type { ConsoleStart } from './console';
import { AppRouter } from './router/AppRouter';
import { PublicConfigContext } from './startup/usePublicConfig';
import { StartupError } from './startup/StartupError';
import { MantineRoot } from './theme/MantineRoot';

/** The console; `queryClient` may hold answers asked for before it rendered (prefetchLandingData). */
export function App({ start, queryClient }: { start: ConsoleStart; queryClient: QueryClient }) {
  return (
    <MantineRoot>
      <QueryClientProvider client={queryClient}>
        {'configError' in start ? (
          <StartupError summary="The sign-in configuration could not be loaded." detail={(start.configError as Error)?.message ?? String(start.configError)} />
        ) : (
          <PublicConfigContext.Provider value={start.config}>
            <AuthSession userManager={start.userManager} startup={start.startup}>
              <AppRouter />
            </AuthSession>
          </PublicConfigContext.Provider>
        )}
      </QueryClientProvider>
    </MantineRoot>
  );
}
