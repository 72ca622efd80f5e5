import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDomain, createDnsLookup, type DnsLookup } from './domain-check.js';
import { startLocalDnsServer } from './local-dns-server.test-support.js';

describe('custom domain check (TXT proof, then CNAME) against a local DNS server', () => {
  let dns: Awaited<ReturnType<typeof startLocalDnsServer>>;
  beforeAll(async () => {
    dns = await startLocalDnsServer(
      new Map([
        ['good.example.com', 'proxy.fleetlink.test'],
        ['wrong.example.com', 'elsewhere.example.net'],
        ['unproven.example.com', 'proxy.fleetlink.test'],
      ]),
      new Map([
        ['_fleetlink-challenge.good.example.com', ['other-token', 'the-token']],
        ['_fleetlink-challenge.wrong.example.com', ['the-token']],
        ['_fleetlink-challenge.unproven.example.com', ['someone-elses-token']],
      ]),
    );
  });
  afterAll(() => dns.close());

  const lookup = () => createDnsLookup([dns.address], { timeoutMs: 1000, tries: 1 });
  const challenge = { token: 'the-token', proven: false };

  it('is ACTIVE when the TXT record holds the token and the CNAME points at the proxy host (case and trailing dot ignored)', async () => {
    expect(await checkDomain(lookup(), 'good.example.com', 'Proxy.Fleetlink.Test.', challenge)).toEqual({ status: 'ACTIVE', reason: null, proven: true });
  });

  it('is FAILED without the organization’s token in the TXT record, whatever the CNAME says', async () => {
    const reason = "No TXT record _fleetlink-challenge.unproven.example.com with this organization's token found: add one with the value the-token to prove the domain is yours.";
    expect(await checkDomain(lookup(), 'unproven.example.com', 'proxy.fleetlink.test', challenge)).toEqual({ status: 'FAILED', reason, proven: false });
    // Proven once, it stays proven: the TXT record may go.
    expect(await checkDomain(lookup(), 'unproven.example.com', 'proxy.fleetlink.test', { ...challenge, proven: true })).toEqual({ status: 'ACTIVE', reason: null, proven: true });
  });

  it('is FAILED naming both hosts when the CNAME points elsewhere', async () => {
    expect(await checkDomain(lookup(), 'wrong.example.com', 'proxy.fleetlink.test', challenge)).toEqual({
      status: 'FAILED',
      reason: 'CNAME points to elsewhere.example.net, expected proxy.fleetlink.test.',
      proven: true,
    });
  });

  it('is FAILED when there is no CNAME record', async () => {
    const result = await checkDomain(lookup(), 'missing.example.com', 'proxy.fleetlink.test', { ...challenge, proven: true });
    expect(result).toEqual({ status: 'FAILED', reason: 'No CNAME record found for missing.example.com, expected one pointing to proxy.fleetlink.test.', proven: true });
  });

  it('reports a lookup failure as FAILED with the cause', async () => {
    const fail = async (): Promise<never> => {
      throw Object.assign(new Error('timeout'), { code: 'ETIMEOUT' });
    };
    const failing: DnsLookup = { cname: fail, txt: fail };
    expect(await checkDomain(failing, 'x.example.com', 'p.test', challenge)).toEqual({ status: 'FAILED', reason: 'The DNS lookup of _fleetlink-challenge.x.example.com failed (ETIMEOUT).', proven: false });
    expect(await checkDomain(failing, 'x.example.com', 'p.test', { ...challenge, proven: true })).toEqual({ status: 'FAILED', reason: 'The DNS lookup of x.example.com failed (ETIMEOUT).', proven: true });
  });
});

describe('DNS_SERVERS configuration', () => {
  it('rejects a malformed server address at start, not at the first check', () => {
    expect(() => createDnsLookup(['not an ip'])).toThrow();
  });
});
