import type { Tunnel, TunnelMode, TunnelType } from '@fleetlink/contract';

/**
 * What the API's Tunnel is made from, whether selected as rows (the tunnels module) or as JSON in a
 * device answer: the custom domain's name (null for the proxy's own), whether a password is set
 * (never its hash), what the proxy last reported, and whether the device is online.
 */
export interface TunnelView {
  id: string;
  name: string;
  type: TunnelType;
  port: number;
  mode: TunnelMode;
  domainId: string | null;
  customDomain: string | null;
  /** The domain of the device's proxy, as it said (null: it has not yet). */
  proxyDomain: string | null;
  path: string | null;
  host: string;
  securityIp: string | null;
  securityUsername: string | null;
  hasPassword: boolean;
  state: 'CONNECTED' | 'DISCONNECTED' | null;
  mapping: string | null;
  online: boolean;
}

/** The API's Tunnel; `domain` is the console's TUNNEL_DOMAIN, for a proxy that has not said its own. */
export function toTunnel(t: TunnelView, domain: string): Tunnel {
  return {
    id: t.id,
    name: t.name,
    type: t.type,
    port: t.port,
    mode: t.mode,
    domain: t.customDomain ?? t.proxyDomain ?? domain,
    domainId: t.domainId,
    path: t.path,
    host: t.host,
    securityIp: t.securityIp,
    securityUsername: t.securityUsername,
    securityPassword: null,
    withSecurityCredentials: t.hasPassword,
    // What the proxy said holds only while the device is online (SPEC §4: UNKNOWN otherwise); a
    // tunnel no proxy has reported on was never connected.
    status: {
      port: t.port,
      state: !t.online ? 'UNKNOWN' : (t.state ?? 'DISCONNECTED'),
      mapping: t.online && t.state === 'CONNECTED' ? t.mapping : null,
    },
  };
}
