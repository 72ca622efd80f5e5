import { describe, expect, it } from 'vitest';
import { missingRoles, requiredRoles } from './route-access';

describe('requiredRoles', () => {
  it('unions the roles of every matched route and ignores other handles', () => {
    const matches = [
      { handle: undefined },
      { handle: { roles: ['USER'] } },
      { handle: { roles: ['USER', 'ADMIN'] } },
      { handle: { crumb: 'Servers' } },
    ];
    expect(requiredRoles(matches)).toEqual(['USER', 'ADMIN']);
  });

  it('requires nothing beyond a login when no route declares roles', () => {
    expect(requiredRoles([{ handle: null }, { handle: {} }])).toEqual([]);
  });
});

describe('missingRoles', () => {
  it('lists the required roles that are not granted', () => {
    expect(missingRoles(['ADMIN'], ['USER'])).toEqual(['ADMIN']);
    expect(missingRoles(['USER'], [])).toEqual(['USER']);
    expect(missingRoles(['USER', 'ADMIN'], ['ADMIN', 'USER'])).toEqual([]);
    expect(missingRoles([], [])).toEqual([]);
  });
});
