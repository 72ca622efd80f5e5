import { Resolver } from 'node:dns/promises';
import type { DomainStatus } from '@fleetlink/contract';

export interface DomainCheckResult {
  status: Exclude<DomainStatus, 'PENDING'>;
  reason: string | null;
  /** Whether the TXT record holds the organization's token (the domain is proven to be theirs). */
  proven: boolean;
}

/** The DNS questions a domain check asks; the seam tests replace or point at a local DNS server. */
export interface DnsLookup {
  cname(domain: string): Promise<string[]>;
  /** Each TXT record as its strings. */
  txt(name: string): Promise<string[][]>;
}

/** Where an organization proves a domain is its own: a TXT record holding its token. */
export const challengeName = (domain: string) => `_fleetlink-challenge.${domain}`;

const normalize = (host: string) => host.trim().toLowerCase().replace(/\.$/, '');

/** Lookups through node's resolver, on the configured servers (`ip` or `ip:port`) or the system's. */
export function createDnsLookup(servers: string[], opts: { timeoutMs?: number; tries?: number } = {}): DnsLookup {
  const resolver = new Resolver({ timeout: opts.timeoutMs ?? 2000, tries: opts.tries ?? 2 });
  if (servers.length) resolver.setServers(servers);
  return { cname: (domain) => resolver.resolveCname(domain), txt: (name) => resolver.resolveTxt(name) };
}

const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

/**
 * A custom domain is ACTIVE once the organization proved it its own (a TXT record
 * `_fleetlink-challenge.{domain}` holding its token; proven once, it stays so) and its CNAME record
 * points at the tunnel proxy host; otherwise FAILED with a reason a person can act on.
 */
export async function checkDomain(lookup: DnsLookup, domain: string, proxyHost: string, challenge: { token: string; proven: boolean }): Promise<DomainCheckResult> {
  const expected = normalize(proxyHost);
  let proven = challenge.proven;
  if (!proven) {
    const name = challengeName(domain);
    try {
      proven = (await lookup.txt(name)).some((record) => record.join('').trim() === challenge.token);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (!NO_RECORD.has(code)) return { status: 'FAILED', reason: `The DNS lookup of ${name} failed (${code || (err as Error).message}).`, proven };
    }
    if (!proven) return { status: 'FAILED', reason: `No TXT record ${name} with this organization's token found: add one with the value ${challenge.token} to prove the domain is yours.`, proven };
  }
  let targets: string[];
  try {
    targets = (await lookup.cname(domain)).map(normalize);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (NO_RECORD.has(code)) return { status: 'FAILED', reason: `No CNAME record found for ${domain}, expected one pointing to ${expected}.`, proven };
    return { status: 'FAILED', reason: `The DNS lookup of ${domain} failed (${code || (err as Error).message}).`, proven };
  }
  if (targets.includes(expected)) return { status: 'ACTIVE', reason: null, proven };
  if (!targets.length) return { status: 'FAILED', reason: `No CNAME record found for ${domain}, expected one pointing to ${expected}.`, proven };
  return { status: 'FAILED', reason: `CNAME points to ${targets.join(', ')}, expected ${expected}.`, proven };
}
