import { describe, expect, it } from 'vitest';
import { fetchPublicConfig } from './public-config';

const config = { oidc: { authority: 'http://localhost/idp', clientId: 'fleetlink-console', scope: 'openid' }, uploadMaxBytes: 1024 };
const answer = (status: number, body: unknown) => async () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('fetchPublicConfig', () => {
  it('returns the parsed configuration', async () => {
    const roleMapping = { claim: 'groups', map: { '/fleet-admins': ['ADMIN'] } };
    await expect(fetchPublicConfig(answer(200, { ...config, roleMapping, accounts: true }))).resolves.toEqual({ ...config, roleMapping, accounts: true });
    // A console from before identity mapping (issue 62) and accounts (issue 72) sends neither: the page maps no group and manages no account.
    await expect(fetchPublicConfig(answer(200, config))).resolves.toEqual({ ...config, roleMapping: null, accounts: false });
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
