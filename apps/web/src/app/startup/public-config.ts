import type { PublicConfig } from '@fleetlink/contract';

export const PUBLIC_CONFIG_URL = '/api/config';

/**
 * The configuration as the console server sends it, or undefined when it is not one. Checked by hand,
 * not with the contract's zod schema: the bootstrap reads it before deciding whether the console's
 * code (zod included) is loaded at all.
 */
export function readPublicConfig(data: unknown): PublicConfig | undefined {
  const d = (data ?? {}) as Partial<Record<keyof PublicConfig, unknown>>;
  const oidc = (d.oidc ?? {}) as Partial<Record<keyof PublicConfig['oidc'], unknown>>;
  const { authority, clientId, scope } = oidc;
  if (typeof authority !== 'string' || typeof clientId !== 'string' || typeof scope !== 'string') return undefined;
  const uploadMaxBytes = d.uploadMaxBytes;
  if (typeof uploadMaxBytes !== 'number' || !Number.isInteger(uploadMaxBytes) || uploadMaxBytes <= 0) return undefined;
  // A console from before identity mapping (issue 62) sends none.
  const roleMapping = (d.roleMapping ?? null) as PublicConfig['roleMapping'];
  if (roleMapping !== null) {
    if (typeof roleMapping !== 'object' || typeof roleMapping.claim !== 'string' || !roleMapping.map || typeof roleMapping.map !== 'object') return undefined;
    for (const roles of Object.values(roleMapping.map)) if (!Array.isArray(roles) || roles.some((r) => typeof r !== 'string')) return undefined;
  }
  // A console from before accounts were managed here (issue 72) sends none.
  const accounts = d.accounts === true;
  return { oidc: { authority, clientId, scope }, uploadMaxBytes, roleMapping, accounts };
}

/**
 * Loads where the identity provider is. It is fetched before anyone is signed in, so it goes around
 * the API client (no token, and failures surface on the startup error screen rather than as toasts).
 */
export async function fetchPublicConfig(fetchImpl: typeof fetch = fetch): Promise<PublicConfig> {
  let response: Response;
  try {
    // As index.html preloads it (same mode, same credentials, no header of its own): the preload is used.
    response = await fetchImpl(PUBLIC_CONFIG_URL);
  } catch (error) {
    throw new Error(`The console server could not be reached (${(error as Error).message}).`);
  }
  if (!response.ok) {
    throw new Error(`The console server answered ${response.status} for its sign-in configuration.`);
  }
  const config = readPublicConfig(await response.json().catch(() => null));
  if (!config) throw new Error('The console server sent an invalid sign-in configuration.');
  return config;
}
