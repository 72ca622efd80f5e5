/** The tunnel a proxy reports a mapping for, and the domain that proxy serves tunnels on. */
export interface MappedTunnel {
  type: 'HTTP' | 'TCP';
  path: string | null;
  /** A verified custom domain of the tunnel's organization, when the tunnel is on one. */
  customDomain: string | null;
  port: number;
}

/**
 * Whether a mapping a proxy reports is the tunnel's own public address, before it is stored and put
 * on the Network tab as a link: `http(s)://{path}.{domain}[:port]` for HTTP (on the proxy's own
 * domain or the tunnel's custom one), `{proxy domain}:{port}` for TCP. A proxy account cannot put
 * a link of its choosing on anyone's page.
 */
export function isTunnelMapping(mapping: string, tunnel: MappedTunnel, proxyDomain: string | null): boolean {
  if (tunnel.type === 'TCP') {
    const m = /^([a-z0-9.-]+):(\d{1,5})$/i.exec(mapping);
    return !!m && !!proxyDomain && m[1]!.toLowerCase() === proxyDomain.toLowerCase() && Number(m[2]) >= 1 && Number(m[2]) <= 65535;
  }
  let url: URL;
  try {
    url = new URL(mapping);
  } catch {
    return false;
  }
  const domain = tunnel.customDomain ?? proxyDomain;
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    !url.username &&
    !url.password &&
    url.pathname === '/' &&
    !url.search &&
    !url.hash &&
    /^[a-z][a-z0-9+.-]*:\/\/[^/]+\/?$/i.test(mapping) &&
    !!tunnel.path &&
    !!domain &&
    url.hostname === `${tunnel.path}.${domain}`.toLowerCase()
  );
}
