import { describe, expect, it } from 'vitest';
import { fieldChanges } from './field-changes.js';

describe('fieldChanges', () => {
  it('lists only what changed, as [before, after], lists by content and missing as null', () => {
    const before = { name: 'a', tags: ['x', 'y'], description: null, branch: 'TEST' };
    const after = { name: 'b', tags: ['x', 'y'], description: undefined, branch: 'PRODUCTION' };
    expect(fieldChanges(before, after, ['name', 'tags', 'description', 'branch'])).toEqual({ name: ['a', 'b'], branch: ['TEST', 'PRODUCTION'] });
    expect(fieldChanges({ tags: ['x'] }, { tags: ['x', 'z'] }, ['tags'])).toEqual({ tags: [['x'], ['x', 'z']] });
  });
});
