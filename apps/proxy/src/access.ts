import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { basicCredentials } from '@fleetlink/contract/basic-credentials';
import { verifyTunnelPassword } from '@fleetlink/contract/tunnel-password';
import { remember } from './bounded-map.js';

/**
 * The allow-list of a tunnel as Node's BlockList (addresses and CIDR ranges, both families);
 * undefined when the list is empty, which allows every address.
 */
export function allowList(entries: string[]): BlockList | undefined {
  if (!entries.length) return undefined;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/');
    const type = isIPv6(address!) ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address!, type);
    else list.addSubnet(address!, Number(prefix), type);
  }
  return list;
}

/** Whether the connection's own address (never a header) is on the list; IPv4 over IPv6 counts as IPv4. */
export function addressAllowed(list: BlockList | undefined, remoteAddress: string | undefined): boolean {
  if (!list) return true;
  if (!remoteAddress) return false;
  const mapped = remoteAddress.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i);
  const address = mapped ? mapped[1]! : remoteAddress;
  if (isIPv4(address)) return list.check(address, 'ipv4');
  return isIPv6(address) && list.check(address, 'ipv6');
}

const CACHE_MAX = 1000;
const CACHE_MS = 5 * 60_000;
/**
 * Wrong credentials in a minute before the sender is told to wait: from one address, and for one
 * tunnel from all addresses together (guesses spread over many addresses are still counted).
 */
const FAILURES_PER_MINUTE = 20;

export type CredentialVerdict = 'passed' | 'refused' | 'blocked';

/**
 * Checks Basic credentials against a tunnel's username and password hash. A page pulls many
 * assets with the same header, and scrypt costs tens of milliseconds on purpose: a success is
 * remembered for a few minutes (by a hash of the tunnel, the hash and the header; never the header).
 * An address that keeps guessing, or a tunnel being guessed at from many, is stopped before any
 * scrypt runs, so guessing costs the proxy little; a visitor already signed in keeps going.
 */
export class CredentialCheck {
  private readonly passed = new Map<string, number>();
  private readonly failures = new Map<string, { count: number; until: number }>();

  async check(expected: { tunnelId: string; username: string; passwordHash: string }, header: string | undefined, address: string): Promise<CredentialVerdict> {
    const key = createHash('sha256').update(`${expected.tunnelId}\0${expected.passwordHash}\0${header}`).digest('base64');
    const until = this.passed.get(key);
    if (until && until > Date.now()) return 'passed';
    if (this.blocked(address) || this.blocked(`tunnel\0${expected.tunnelId}`)) return 'blocked';
    const given = basicCredentials(header);
    const ok = !!given && sameText(given.username, expected.username) && (await verifyTunnelPassword(given.password, expected.passwordHash));
    if (!ok) {
      // A request without credentials is how a browser asks for the prompt: not a guess.
      if (header) {
        this.recordFailure(address);
        this.recordFailure(`tunnel\0${expected.tunnelId}`);
      }
      return 'refused';
    }
    remember(this.passed, key, Date.now() + CACHE_MS, CACHE_MAX);
    return 'passed';
  }

  /** Failures are counted by address, and by tunnel under a key no address can be. */
  private blocked(key: string): boolean {
    const failed = this.failures.get(key);
    return !!failed && failed.until > Date.now() && failed.count >= FAILURES_PER_MINUTE;
  }

  private recordFailure(key: string) {
    const now = Date.now();
    const current = this.failures.get(key);
    if (current && current.until > now) current.count++;
    else remember(this.failures, key, { count: 1, until: now + 60_000 }, CACHE_MAX);
  }
}

function sameText(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y);
}
