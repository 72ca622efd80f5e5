import { describe, expect, it } from 'vitest';
import { audienceOf, listensOnLoopbackOnly, parseEnv } from './env.js';

describe('configuration of sign-in', () => {
  it('listens on loopback unless HOST says otherwise', () => {
    expect(parseEnv({}).HOST).toBe('127.0.0.1');
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', 'LOCALHOST']) expect(listensOnLoopbackOnly({ HOST: host }), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.0.2.2', 'fleet.example.com', '128.0.0.1']) expect(listensOnLoopbackOnly({ HOST: host }), host).toBe(false);
  });

  it('takes seeded passwords of 12 characters or more', () => {
    expect(parseEnv({ IDP_ADMIN_PASSWORD: 'twelve-chars' }).IDP_ADMIN_PASSWORD).toBe('twelve-chars');
    expect(() => parseEnv({ IDP_ADMIN_PASSWORD: 'admin' })).toThrow(
      'Invalid configuration: IDP_ADMIN_PASSWORD: IDP_ADMIN_PASSWORD must be at least 12 characters long',
    );
  });

  it('checks the audience with either provider unless OIDC_AUDIENCE is none', () => {
    expect(audienceOf(parseEnv({}))).toBe('fleetlink-api');
    expect(audienceOf(parseEnv({ OIDC_ISSUER: 'https://kc.example.com/realms/fleetlink' }))).toBe('fleetlink-api');
    expect(audienceOf(parseEnv({ OIDC_ISSUER: 'https://kc.example.com/realms/fleetlink', OIDC_AUDIENCE: 'account' }))).toBe('account');
    expect(audienceOf(parseEnv({ OIDC_ISSUER: 'https://kc.example.com/realms/fleetlink', OIDC_AUDIENCE: 'none' }))).toBeUndefined();
    // The built-in provider stamps its own audience whatever the variable says.
    expect(audienceOf(parseEnv({ OIDC_AUDIENCE: 'none' }))).toBe('fleetlink-api');
  });
});
