import { describe, expect, it } from 'vitest';
import { monitorValueText } from './monitor-value';

describe('monitorValueText', () => {
  it('shows UPDATE as dd MMM yyyy HH:mm in local time', () => {
    const local = new Date(2026, 10, 20, 8, 30);
    expect(monitorValueText({ type: 'UPDATE', value: local.toISOString() })).toBe('20 Nov 2026 08:30');
  });

  it('shows SIZE in bytes of base 1024', () => {
    expect(monitorValueText({ type: 'SIZE', value: '3048' })).toBe('3.0 KB');
    expect(monitorValueText({ type: 'SIZE', value: '0' })).toBe('0 bytes');
  });

  it('shows VERSION as it is', () => {
    expect(monitorValueText({ type: 'VERSION', value: '1.5.0-beta.2' })).toBe('1.5.0-beta.2');
  });

  it("shows '-' when there is no value, or one its type cannot be", () => {
    expect(monitorValueText({ type: 'SIZE', value: null })).toBe('-');
    expect(monitorValueText({ type: 'UPDATE', value: 'yesterday' })).toBe('-');
    expect(monitorValueText({ type: 'SIZE', value: 'lots' })).toBe('-');
    expect(monitorValueText({ type: 'SIZE', value: '' })).toBe('-');
  });
});
