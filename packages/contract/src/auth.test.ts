import { describe, expect, it } from 'vitest';
import { grantedRoles } from './roles.js';

describe('grantedRoles (SPEC §6: realm and per-client roles)', () => {
  const client = 'fleetlink-console';

  it('grants realm roles alone', () => {
    expect(grantedRoles(['USER', 'ADMIN'], {}, client)).toEqual(['USER', 'ADMIN']);
  });

  it('grants the console client\'s roles alone', () => {
    expect(grantedRoles([], { [client]: ['USER', 'ADMIN'] }, client)).toEqual(['USER', 'ADMIN']);
  });

  it('merges both, each role once', () => {
    expect(grantedRoles(['USER', 'offline_access'], { [client]: ['USER', 'ADMIN'] }, client)).toEqual(['USER', 'offline_access', 'ADMIN']);
  });

  it('ignores another client\'s roles', () => {
    expect(grantedRoles(['USER'], { account: ['ADMIN', 'manage-account'], 'other-app': ['ADMIN'] }, client)).toEqual(['USER']);
  });

  it('reads no role off Object.prototype for a client id such as constructor', () => {
    expect(grantedRoles([], {}, 'constructor')).toEqual([]);
  });
});
