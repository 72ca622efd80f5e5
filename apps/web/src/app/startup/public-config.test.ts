import { describe, expect, it } from 'vitest';
import { fetchPublicConfig } from './public-config';

const config = { oidc: { authority: 'http://localhost/idp', clientId: 'fleetlink-console', scope: 'openid' }, uploadMaxBytes: 1024 };
const answer = (status: number, body: unknown) => async () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('fetchPublicConfig', () => {
  it('returns the parsed configuration', async () => {
    await expect(fetchPublicConfig(answer(200, config))).resolves.toEqual(config);
  });

  it('fails clearly on an HTTP error, an invalid body or no server', async () => {
    await expect(fetchPublicConfig(answer(503, {}))).rejects.toThrow('answered 503');
    await expect(fetchPublicConfig(answer(200, { oidc: {} }))).rejects.toThrow('invalid sign-in configuration');
    const offline = async () => {
      throw new TypeError('Failed to fetch');
    };
    await expect(fetchPublicConfig(offline)).rejects.toThrow('could not be reached (Failed to fetch)');
  });
});
