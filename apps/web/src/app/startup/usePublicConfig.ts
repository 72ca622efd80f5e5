import type { PublicConfig } from '@fleetlink/contract';
import { createContext, useContext } from 'react';

// Apart from public-config.ts, which the bootstrap loads before React.
export const PublicConfigContext = createContext<PublicConfig | undefined>(undefined);

/** The configuration the bootstrap loaded before the console started: there for every page. */
export function usePublicConfig(): PublicConfig {
  const config = useContext(PublicConfigContext);
  if (!config) throw new Error('usePublicConfig is used outside the console (no PublicConfigContext)');
  return config;
}
