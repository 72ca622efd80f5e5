import { describe, expect, it } from 'vitest';
import { entityLabel, shortId } from './entity-label';

const id = '3f2a9c1e-7b44-4d1a-9e0f-2c6b8d5a1f00';

describe('shortId', () => {
  it('keeps the first 8 characters', () => {
    expect(shortId(id)).toBe('3f2a9c1e');
  });

  it('leaves short ids untouched', () => {
    expect(shortId('abc')).toBe('abc');
  });
});

describe('entityLabel', () => {
  it('prefers the name', () => {
    expect(entityLabel({ id, name: 'Warehouse gateway' })).toBe('Warehouse gateway');
  });

  it('falls back to the short id when the name is missing or blank', () => {
    expect(entityLabel({ id })).toBe('3f2a9c1e');
    expect(entityLabel({ id, name: null })).toBe('3f2a9c1e');
    expect(entityLabel({ id, name: '   ' })).toBe('3f2a9c1e');
  });
});
