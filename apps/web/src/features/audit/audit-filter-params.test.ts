import { describe, expect, it } from 'vitest';
import { filterFromParams, filterToParams, fromLocalInput, toLocalInput } from './audit-filter-params';

describe('audit filter in the address', () => {
  it('round-trips a filter and drops what is not valid', () => {
    const filter = { who: 'user@fleetlink.local', kind: 'command' as const, outcome: 'error' as const };
    expect(filterFromParams(filterToParams(filter))).toEqual(filter);
    expect(filterFromParams(new URLSearchParams('kind=nonsense&who=x'))).toEqual({});
  });

  it('converts datetime-local values, the end of a range covering its whole minute', () => {
    const start = fromLocalInput('2026-11-24T10:15')!;
    expect(toLocalInput(start)).toBe('2026-11-24T10:15');
    expect(Date.parse(fromLocalInput('2026-11-24T10:15', true)!) - Date.parse(start)).toBe(59_999);
    expect(fromLocalInput('')).toBeUndefined();
  });
});
