import type { AddressInfo } from 'node:net';

/**
 * This console as another process on the same machine reaches it: the port it listens on, at the
 * address it listens on (loopback when that is every interface). Known only once it listens.
 */
export function loopbackUrl(address: AddressInfo | string | null, host: string): string {
  const port = address && typeof address === 'object' ? address.port : 0;
  const at = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${at}:${port}`;
}
