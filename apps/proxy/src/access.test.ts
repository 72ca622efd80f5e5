import { hashTunnelPassword } from '@fleetlink/contract/tunnel-password';
import { describe, expect, it } from 'vitest';
import { basicCredentials } from '@fleetlink/contract/basic-credentials';
import { addressAllowed, allowList, CredentialCheck } from './access.js';
import { hostname } from './ingress.js';

describe('allow-list', () => {
  const list = allowList(['203.0.113.0/24', '10.1.2.3', '2001:db8::/32']);

  it('allows addresses and ranges of both families, IPv4 over IPv6 as IPv4', () => {
    expect(addressAllowed(list, '203.0.113.77')).toBe(true);
    expect(addressAllowed(list, '::ffff:203.0.113.77')).toBe(true);
    expect(addressAllowed(list, '10.1.2.3')).toBe(true);
    expect(addressAllowed(list, '2001:db8:1::5')).toBe(true);
  });

  it('refuses everything else, and a connection without an address', () => {
    expect(addressAllowed(list, '203.0.114.1')).toBe(false);
    expect(addressAllowed(list, '10.1.2.4')).toBe(false);
    expect(addressAllowed(list, '::1')).toBe(false);
    expect(addressAllowed(list, undefined)).toBe(false);
  });

  it('allows any address when the list is empty', () => {
    expect(allowList([])).toBeUndefined();
    expect(addressAllowed(undefined, '198.51.100.1')).toBe(true);
  });
});

describe('Basic credentials', () => {
  it('reads a username and a password that may hold colons', () => {
    expect(basicCredentials(`Basic ${Buffer.from('ops:a:b c').toString('base64')}`)).toEqual({ username: 'ops', password: 'a:b c' });
    expect(basicCredentials('Bearer abc')).toBeUndefined();
    expect(basicCredentials(`Basic ${Buffer.from('no colon').toString('base64')}`)).toBeUndefined();
    expect(basicCredentials(undefined)).toBeUndefined();
  });

  it('checks them against the hash, and stops an address that keeps guessing', async () => {
    const check = new CredentialCheck();
    const expected = { tunnelId: 't1', username: 'ops', passwordHash: await hashTunnelPassword('right') };
    const header = (p: string) => `Basic ${Buffer.from(`ops:${p}`).toString('base64')}`;
    expect(await check.check(expected, header('right'), '192.0.2.1')).toBe('passed');
    expect(await check.check(expected, header('wrong'), '192.0.2.1')).toBe('refused');
    expect(await check.check(expected, undefined, '192.0.2.1')).toBe('refused');
    for (let i = 0; i < 19; i++) await check.check(expected, header(`wrong ${i}`), '192.0.2.1');
    expect(await check.check(expected, header('another'), '192.0.2.1')).toBe('blocked');
    // Another address at another tunnel is not concerned, and credentials that passed before still pass.
    expect(await check.check({ ...expected, tunnelId: 't2' }, header('wrong'), '192.0.2.2')).toBe('refused');
    expect(await check.check(expected, header('right'), '192.0.2.1')).toBe('passed');
  });

  it('stops guesses at one tunnel spread over many addresses: 20 a minute in all', async () => {
    const check = new CredentialCheck();
    const expected = { tunnelId: 't3', username: 'ops', passwordHash: await hashTunnelPassword('right') };
    const header = (p: string) => `Basic ${Buffer.from(`ops:${p}`).toString('base64')}`;
    // Five addresses, four guesses each: each address is far from its own limit.
    for (let a = 1; a <= 5; a++) for (let i = 0; i < 4; i++) expect(await check.check(expected, header(`guess ${a}.${i}`), `192.0.2.${a}`)).toBe('refused');
    expect(await check.check(expected, header('guess'), '192.0.2.6')).toBe('blocked');
    expect(await check.check(expected, header('right'), '192.0.2.7')).toBe('blocked');
    // The same addresses at another tunnel are not concerned.
    expect(await check.check({ ...expected, tunnelId: 't4' }, header('wrong'), '192.0.2.1')).toBe('refused');
  });
});

describe('host names', () => {
  it('are lowercase, without port or trailing dot', () => {
    expect(hostname('App.LocalHost:8081')).toBe('app.localhost');
    expect(hostname('app.example.com.')).toBe('app.example.com');
    expect(hostname('[::1]:8081')).toBe('[::1]');
  });
});
