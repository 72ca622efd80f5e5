import { describe, expect, it } from 'vitest';
import { formatBytes, numberProperty, usedPercent } from './units';

describe('summary units', () => {
  it('formats sizes in base 1024', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(1023)).toBe('1023 bytes');
    expect(formatBytes(1024)).toBe('1.0 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(8 * 1024 ** 3)).toBe('8.0 GB');
    expect(formatBytes(500 * 1024 ** 3)).toBe('500 GB');
    expect(formatBytes(undefined)).toBe('-');
    expect(formatBytes(Number.NaN)).toBe('-');
  });

  it('computes used over total with 0 decimals', () => {
    expect(usedPercent(1000, 250)).toBe(75);
    expect(usedPercent(3, 2)).toBe(33);
    expect(usedPercent(0, 0)).toBeUndefined();
    expect(usedPercent(100, undefined)).toBeUndefined();
    expect(usedPercent(100, 200)).toBe(0);
  });

  it('reads numeric properties defensively', () => {
    expect(numberProperty({ 'mem.total': '1024' }, 'mem.total')).toBe(1024);
    expect(numberProperty({ 'mem.total': 'lots' }, 'mem.total')).toBeUndefined();
    expect(numberProperty(null, 'mem.total')).toBeUndefined();
    expect(numberProperty({ x: ' ' }, 'x')).toBeUndefined();
  });
});
