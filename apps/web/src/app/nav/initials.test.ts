import { describe, expect, it } from 'vitest';
import { initials } from './initials';

describe('initials', () => {
  it('takes the first and last word of a name', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('Jean  Claude van Damme')).toBe('JD');
    expect(initials('Fleetlink Administrator')).toBe('FA');
  });

  it('uses the local part of an email address', () => {
    expect(initials('admin@fleetlink.local')).toBe('A');
  });

  it('shows a placeholder without a name', () => {
    expect(initials(null)).toBe('?');
    expect(initials('  ')).toBe('?');
  });
});
