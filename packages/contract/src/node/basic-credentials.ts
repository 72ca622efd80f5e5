/**
 * `Authorization: Basic …` as username and password (the password may hold colons); undefined when
 * the header is anything else. Read by the proxy (tunnel credentials) and by the console (a proxy
 * signing in to its API). Node only (Buffer), hence outside the package's index.
 */
export function basicCredentials(header: string | undefined): { username: string; password: string } | undefined {
  const match = header?.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
