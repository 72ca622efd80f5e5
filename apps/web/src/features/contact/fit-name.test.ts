import { describe, expect, it } from 'vitest';
import { fitName } from './fit-name';

describe('fitName', () => {
  it('keeps a name that fits, and of a longer one the first words that fit the 32 characters', () => {
    expect(fitName('Ada Admin')).toBe('Ada Admin');
    expect(fitName('Maximilian Alexander von Habsburg-Lothringen')).toBe('Maximilian Alexander von');
    expect(fitName('x'.repeat(40))).toBe('x'.repeat(32));
    expect(fitName('  ')).toBe('');
  });
});
