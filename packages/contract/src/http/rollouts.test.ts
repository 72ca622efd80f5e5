import { describe, expect, it } from 'vitest';
import { rolloutFormDefaults, rolloutFormSchema, type RolloutForm } from './rollouts.js';

const errors = (form: Partial<RolloutForm>) => {
  const parsed = rolloutFormSchema.safeParse({ ...rolloutFormDefaults, mode: 'waves', ...form });
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('the rollout form (issue 65)', () => {
  it('takes all at once, and the default waves', () => {
    expect(rolloutFormSchema.safeParse(rolloutFormDefaults).success).toBe(true);
    expect(errors({})).toEqual({});
  });

  it('wants the last wave to be 100 %, and each wave to reach more than the one before', () => {
    expect(errors({ waves: [{ unit: 'devices', amount: 1 }, { unit: 'percent', amount: 50 }] })).toEqual({
      'waves.1.amount': 'The last wave must be 100 %: every device of the release is in a wave.',
    });
    expect(errors({ waves: [{ unit: 'percent', amount: 50 }, { unit: 'percent', amount: 20 }, { unit: 'percent', amount: 100 }] })).toEqual({
      'waves.1.amount': 'Each wave reaches more than the one before (above 50 %).',
    });
    expect(errors({ waves: [{ unit: 'percent', amount: 120 }, { unit: 'percent', amount: 100 }] })['waves.0.amount']).toBe('A share is at most 100 %.');
    expect(errors({ waves: [] })).toEqual({ waves: 'Add at least one wave.' });
    expect(errors({ waves: [{ unit: 'devices', amount: 0 }, { unit: 'percent', amount: 100 }] })['waves.0.amount']).toBe('Share is at least 1.');
  });

  it('refuses a threshold outside 0-100 % and a wait of more than 7 days', () => {
    expect(errors({ failurePercent: 101 })).toEqual({ failurePercent: 'The failure threshold is between 0 and 100 %.' });
    expect(errors({ failurePercent: -1 })).toEqual({ failurePercent: 'The failure threshold is between 0 and 100 %.' });
    expect(errors({ waitMinutes: 7 * 24 * 60 + 1 })).toEqual({ waitMinutes: 'The wait is at most 10080 minutes (7 days).' });
    expect(errors({ waitMinutes: 7 * 24 * 60, failurePercent: 0, failureCount: null })).toEqual({});
  });
});
