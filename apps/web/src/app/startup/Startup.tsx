import { AuthSession } from '../auth/AuthSession';
import { AppRouter } from '../router/AppRouter';
import { FullPageLoader } from './FullPageLoader';
import { usePublicConfig } from './public-config';
import { StartupError } from './StartupError';

/** Loads the sign-in configuration, then starts the session and the console. */
export function Startup() {
  const config = usePublicConfig();

  if (config.isPending) return <FullPageLoader label="Starting Fleetlink…" />;
  if (config.isError) {
    return <StartupError summary="The sign-in configuration could not be loaded." detail={config.error.message} />;
  }
  return (
    <AuthSession config={config.data}>
      <AppRouter />
    </AuthSession>
  );
}
