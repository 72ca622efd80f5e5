import { describe, expect, it } from 'vitest';
import { idPrefixRange, searchTerms } from './device-search.js';

describe('searchTerms', () => {
  it('splits what was typed into lower-case terms', () => {
    expect(searchTerms('Kiosk  ams')).toEqual(['kiosk', 'ams']);
    expect(searchTerms('10.20.30')).toEqual(['10.20.30']);
    expect(searchTerms('host-01.example.com')).toEqual(['host-01.example.com']);
    expect(searchTerms('a b c d e f g h i j')).toHaveLength(8);
  });

  it('drops what is no part of a name, address or id', () => {
    expect(searchTerms("it's")).toEqual(['its']);
    expect(searchTerms('a&b|c!(d):*')).toEqual(['abcd']);
    expect(searchTerms('\\ \' & | ! ( ) :*')).toBeUndefined();
    expect(searchTerms('   ')).toBeUndefined();
    expect(searchTerms(undefined)).toBeUndefined();
    expect(searchTerms('-trailing- .dots.')).toEqual(['trailing', 'dots']);
  });
});

describe('idPrefixRange', () => {
  it('covers the uuids that start with a hex prefix', () => {
    expect(idPrefixRange('0b1f0868')).toEqual({
      from: '0b1f0868-0000-0000-0000-000000000000',
      to: '0b1f0868-ffff-ffff-ffff-ffffffffffff',
    });
    expect(idPrefixRange('0B1F0868-13')).toEqual({
      from: '0b1f0868-1300-0000-0000-000000000000',
      to: '0b1f0868-13ff-ffff-ffff-ffffffffffff',
    });
    const full = '0b1f0868-1300-4000-8000-00000000abcd';
    expect(idPrefixRange(full)).toEqual({ from: full, to: full });
  });

  it('ignores what cannot be the start of an id', () => {
    expect(idPrefixRange('abc')).toBeUndefined();
    expect(idPrefixRange('kiosk')).toBeUndefined();
    expect(idPrefixRange('0b1f-0868')).toBeUndefined();
    expect(idPrefixRange('0b1f08681')).toBeUndefined();
  });
});
