import { describe, expect, it } from 'vitest';
import { locationParams, pageNote, pageSteps, readLocation } from './file-location';

describe('file location', () => {
  it('reads and writes the URL, leaving defaults out', () => {
    expect(readLocation(new URLSearchParams(''))).toEqual({ path: undefined, hidden: false, offset: 0 });
    const loc = { path: '/home/ann & co', hidden: true, offset: 500 };
    expect(readLocation(locationParams(loc))).toEqual(loc);
    expect(locationParams({ hidden: false, offset: 0 }).toString()).toBe('');
    expect(readLocation(new URLSearchParams('offset=-3'))).toMatchObject({ offset: 0 });
    expect(readLocation(new URLSearchParams('offset=abc'))).toMatchObject({ offset: 0 });
  });

  it('says which entries a page of a long folder holds, and where the next ones are', () => {
    expect(pageNote(0, 12, 12)).toBeUndefined();
    expect(pageNote(0, 500, 100_000)).toBe('Entries 1–500 of 100,000');
    expect(pageNote(99_500, 500, 100_000)).toBe('Entries 99,501–100,000 of 100,000');
    expect(pageSteps(0, 500, 100_000)).toEqual({ previous: undefined, next: 500 });
    expect(pageSteps(500, 480, 1000)).toEqual({ previous: 0, next: 980 });
    expect(pageSteps(980, 20, 1000)).toEqual({ previous: 480, next: undefined });
  });
});
