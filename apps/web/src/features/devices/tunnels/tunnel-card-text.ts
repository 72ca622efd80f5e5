import type { Tunnel, TunnelState } from '@fleetlink/contract';

/** SPEC §2 security summary: IP and password, IP only, with password, any IP. */
export function securitySummary(t: Pick<Tunnel, 'securityIp' | 'withSecurityCredentials'>): string {
  const ip = !!t.securityIp;
  if (ip && t.withSecurityCredentials) return 'IP and password';
  if (ip) return 'IP only';
  if (t.withSecurityCredentials) return 'with password';
  return 'any IP';
}

export const stateLabel: Record<TunnelState, string> = { CONNECTED: 'connected', DISCONNECTED: 'disconnected', UNKNOWN: 'unknown' };
export const stateColor: Record<TunnelState, string> = { CONNECTED: 'green', DISCONNECTED: 'gray', UNKNOWN: 'yellow' };
