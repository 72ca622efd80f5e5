import { describe, expect, it } from 'vitest';
import { idPrefixRange, toPrefixQuery } from './device-search.js';

describe('toPrefixQuery', () => {
  it('turns words into an AND of prefix terms', () => {
    expect(toPrefixQuery('Kiosk  ams')).toBe("'kiosk':* & 'ams':*");
    expect(toPrefixQuery('10.20.30')).toBe("'10.20.30':*");
    expect(toPrefixQuery('host-01.example.com')).toBe("'host-01.example.com':*");
  });

  it('drops tsquery syntax so input cannot break the query', () => {
    expect(toPrefixQuery("it's")).toBe("'its':*");
    expect(toPrefixQuery('a&b|c!(d):*')).toBe("'abcd':*");
    expect(toPrefixQuery('\\ \' & | ! ( ) :*')).toBeUndefined();
    expect(toPrefixQuery('   ')).toBeUndefined();
    expect(toPrefixQuery(undefined)).toBeUndefined();
    expect(toPrefixQuery('-trailing- .dots.')).toBe("'trailing':* & 'dots':*");
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
