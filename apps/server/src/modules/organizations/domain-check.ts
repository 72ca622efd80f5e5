import { Resolver } from 'node:dns/promises';
import type { DomainStatus } from '@fleetlink/contract';

export interface DomainCheckResult {
  status: Exclude<DomainStatus, 'PENDING'>;
  reason: string | null;
}

/** Looks up CNAME targets of a name; the seam tests replace or point at a local DNS server. */
export type CnameLookup = (domain: string) => Promise<string[]>;

const normalize = (host: string) => host.trim().toLowerCase().replace(/\.$/, '');

/** CNAME lookups through node's resolver, on the configured servers (`ip` or `ip:port`) or the system's. */
export function createCnameLookup(servers: string[], opts: { timeoutMs?: number; tries?: number } = {}): CnameLookup {
  const resolver = new Resolver({ timeout: opts.timeoutMs ?? 2000, tries: opts.tries ?? 2 });
  if (servers.length) resolver.setServers(servers);
  return (domain) => resolver.resolveCname(domain);
}

const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

/**
 * A custom domain is ACTIVE when its CNAME record points at the tunnel proxy host; otherwise FAILED
 * with a reason a person can act on.
 */
export async function checkDomain(lookup: CnameLookup, domain: string, proxyHost: string): Promise<DomainCheckResult> {
  const expected = normalize(proxyHost);
  let targets: string[];
  try {
    targets = (await lookup(domain)).map(normalize);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (NO_RECORD.has(code)) return { status: 'FAILED', reason: `No CNAME record found for ${domain}, expected one pointing to ${expected}.` };
    return { status: 'FAILED', reason: `The DNS lookup of ${domain} failed (${code || (err as Error).message}).` };
  }
  if (targets.includes(expected)) return { status: 'ACTIVE', reason: null };
  if (!targets.length) return { status: 'FAILED', reason: `No CNAME record found for ${domain}, expected one pointing to ${expected}.` };
  return { status: 'FAILED', reason: `CNAME points to ${targets.join(', ')}, expected ${expected}.` };
}
