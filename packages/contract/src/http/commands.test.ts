import { describe, expect, it } from 'vitest';
import { commandFormDefaults, commandFormSchema } from '../forms/command-form.js';
import { commandTimeoutSeconds } from './commands.js';

describe('command timeout', () => {
  it('defaults to 30 seconds and takes whole seconds from 1 to 300', () => {
    expect(commandTimeoutSeconds({})).toBe(30);
    expect(commandTimeoutSeconds({ timeout: '1' })).toBe(1);
    expect(commandTimeoutSeconds({ timeout: ' 300 ' })).toBe(300);
    for (const bad of ['0', '301', '1.5', '1e2', '-5', 'soon', '']) {
      expect(commandTimeoutSeconds({ timeout: bad }), bad).toEqual({ error: 'Timeout must be a whole number of seconds from 1 to 300.' });
    }
  });
});

describe('command form', () => {
  it('starts with execute and a row named command, which still needs its value', () => {
    const result = commandFormSchema.safeParse(commandFormDefaults);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['parameters.0.value', 'Value is required.']]);
  });

  it('keeps values as typed and trims names', () => {
    const form = commandFormSchema.parse({ name: ' execute ', parameters: [{ name: ' command ', value: '  ls -la ' }] });
    expect(form).toEqual({ name: 'execute', parameters: [{ name: 'command', value: '  ls -la ' }] });
  });
});
