import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDomain, createCnameLookup } from './domain-check.js';
import { startLocalDnsServer } from './local-dns-server.test-support.js';

describe('custom domain CNAME check against a local DNS server', () => {
  let dns: Awaited<ReturnType<typeof startLocalDnsServer>>;
  beforeAll(async () => {
    dns = await startLocalDnsServer(
      new Map([
        ['good.example.com', 'proxy.fleetlink.test'],
        ['wrong.example.com', 'elsewhere.example.net'],
      ]),
    );
  });
  afterAll(() => dns.close());

  const lookup = () => createCnameLookup([dns.address], { timeoutMs: 1000, tries: 1 });

  it('is ACTIVE when the CNAME points at the proxy host (case and trailing dot ignored)', async () => {
    expect(await checkDomain(lookup(), 'good.example.com', 'Proxy.Fleetlink.Test.')).toEqual({ status: 'ACTIVE', reason: null });
  });

  it('is FAILED naming both hosts when the CNAME points elsewhere', async () => {
    expect(await checkDomain(lookup(), 'wrong.example.com', 'proxy.fleetlink.test')).toEqual({
      status: 'FAILED',
      reason: 'CNAME points to elsewhere.example.net, expected proxy.fleetlink.test.',
    });
  });

  it('is FAILED when there is no CNAME record', async () => {
    const result = await checkDomain(lookup(), 'missing.example.com', 'proxy.fleetlink.test');
    expect(result).toEqual({ status: 'FAILED', reason: 'No CNAME record found for missing.example.com, expected one pointing to proxy.fleetlink.test.' });
  });

  it('reports a lookup failure as FAILED with the cause', async () => {
    const failing = async () => {
      throw Object.assign(new Error('timeout'), { code: 'ETIMEOUT' });
    };
    expect(await checkDomain(failing, 'x.example.com', 'p.test')).toEqual({ status: 'FAILED', reason: 'The DNS lookup of x.example.com failed (ETIMEOUT).' });
  });
});

describe('DNS_SERVERS configuration', () => {
  it('rejects a malformed server address at start, not at the first check', () => {
    expect(() => createCnameLookup(['not an ip'])).toThrow();
  });
});
