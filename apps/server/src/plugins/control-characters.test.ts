import { describe, expect, it } from 'vitest';
import { findControlCharacter, labelOf } from './control-characters.js';

describe('findControlCharacter', () => {
  it('finds NUL, the other C0 controls and DEL in strings and keys at any depth, and lets tab, line feed and carriage return pass', () => {
    expect(findControlCharacter({ notes: 'line one\r\nline two\twith a tab' })).toBeUndefined();
    expect(findControlCharacter({ name: 'a\u0000b' })).toEqual(['name']);
    expect(findControlCharacter({ a: [{ ok: 'x' }, { b: 'bell\u0007' }] })).toEqual(['a', 1, 'b']);
    expect(findControlCharacter({ ['key\u001f']: 1 })).toEqual(['key\u001f']);
    expect(findControlCharacter('del\u007f')).toEqual([]);
    expect(findControlCharacter(undefined)).toBeUndefined();
    expect(findControlCharacter(Buffer.from([0, 1, 2]))).toBeUndefined();
  });

  it('walks a deeply nested body without exhausting the stack', () => {
    let deep: unknown = 'bottom\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findControlCharacter(deep)).toHaveLength(100_000);
  });
});

describe('labelOf', () => {
  it('names a field as its form does', () => {
    expect(labelOf('trustStorePassword')).toBe('Trust store password');
    expect(labelOf('url')).toBe('URL');
    expect(labelOf('blobBaseUrl')).toBe('Blob base URL');
    expect(labelOf('name')).toBe('Name');
    expect(labelOf('device_id')).toBe('Device id');
    // Keys of Object.prototype and text that is no field name are not taken for labels.
    expect(labelOf('constructor')).toBe('Constructor');
    expect(labelOf('<b>x'.repeat(100))).toBe('This value');
  });
});
