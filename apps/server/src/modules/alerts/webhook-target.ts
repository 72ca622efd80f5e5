import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may point (issue 66, SSRF): never link-local or cloud metadata addresses, never
 * the unspecified or multicast ones; private and loopback ones only when the operator allows it
 * (ALERT_WEBHOOK_PRIVATE_TARGETS, a receiver on their own network). Checked on the addresses a
 * name resolves to at each send, so a name that later resolves elsewhere (DNS rebinding) is caught.
 */
const never = new BlockList();
never.addSubnet('169.254.0.0', 16, 'ipv4'); // link-local, 169.254.169.254 metadata among them
never.addSubnet('0.0.0.0', 8, 'ipv4');
never.addSubnet('224.0.0.0', 4, 'ipv4');
never.addSubnet('240.0.0.0', 4, 'ipv4');
never.addSubnet('fe80::', 10, 'ipv6');
never.addSubnet('ff00::', 8, 'ipv6');
never.addAddress('::', 'ipv6');
never.addAddress('fd00:ec2::254', 'ipv6'); // AWS metadata over IPv6

const privateRanges = new BlockList();
privateRanges.addSubnet('127.0.0.0', 8, 'ipv4');
privateRanges.addSubnet('10.0.0.0', 8, 'ipv4');
privateRanges.addSubnet('172.16.0.0', 12, 'ipv4');
privateRanges.addSubnet('192.168.0.0', 16, 'ipv4');
privateRanges.addSubnet('100.64.0.0', 10, 'ipv4');
privateRanges.addAddress('::1', 'ipv6');
privateRanges.addSubnet('fc00::', 7, 'ipv6');

/** Why a webhook may not be sent to `address`, or undefined when it may. */
export function refusedAddress(address: string, allowPrivate: boolean): string | undefined {
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 one.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const ip = mapped ?? address;
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  if (never.check(ip, family)) return `${ip} is a link-local, metadata or reserved address: a webhook cannot be sent there.`;
  if (!allowPrivate && privateRanges.check(ip, family)) {
    return `${ip} is a private or loopback address: a webhook goes there only when the operator allows private targets (ALERT_WEBHOOK_PRIVATE_TARGETS).`;
  }
  return undefined;
}

/**
 * Why a webhook URL is refused before any name is resolved, or undefined: the console's own origin
 * (a rule would call the console's API with its own alerts), and literal addresses `refusedAddress` refuses.
 */
export function refusedUrl(url: string, o: { allowPrivate: boolean; consoleOrigins: string[] }): string | undefined {
  const target = new URL(url);
  if (o.consoleOrigins.includes(target.origin)) return 'The webhook URL cannot be the console itself.';
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return refusedAddress(host, o.allowPrivate);
  if (!o.allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))) return refusedAddress('127.0.0.1', false);
  return undefined;
}
