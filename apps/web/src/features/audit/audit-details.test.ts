import { describe, expect, it } from 'vitest';
import { describeDetails } from './audit-details';

describe('describeDetails', () => {
  it('lists fields, parameters and before → after for edits', () => {
    expect(
      describeDetails({ details: { name: 'execute', parameters: { command: 'ls -la' }, exitCode: 0, changes: { name: ['a', 'b'], description: [null, 'x'] } } }),
    ).toEqual(['name: execute', 'command: ls -la', 'exitCode: 0', 'name: a → b', 'description: - → x']);
  });

  it('keeps long values to one short line', () => {
    const [line] = describeDetails({ details: { command: 'x'.repeat(500) } });
    expect(line!.length).toBeLessThan(140);
    expect(line!.endsWith('…')).toBe(true);
  });
});
