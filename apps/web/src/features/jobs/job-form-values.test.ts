import { jobFormSchema } from '@fleetlink/contract';
import { describe, expect, it } from 'vitest';
import { initialJobValues, toFormErrors, toJobForm } from './job-form-values';

describe('job form values', () => {
  it('takes the search and tab Find devices sent, or picked ids, as the target', () => {
    const fromSearch = initialJobValues(new URLSearchParams('search=kiosk&status=online'));
    expect(toJobForm(fromSearch).target).toEqual({ kind: 'search', search: 'kiosk', status: 'online' });
    expect(toJobForm(initialJobValues(new URLSearchParams())).target).toEqual({ kind: 'search' });
    const ids = ['7c9e6679-7425-40de-944b-e07fc1f90ae7', '16fd2706-8baf-433b-82eb-8c7fada847da'];
    const picked = initialJobValues(new URLSearchParams(ids.map((id) => ['id', id])));
    expect(toJobForm(picked).target).toEqual({ kind: 'devices', ids });
    // Typed by hand: one per line, or commas and spaces.
    expect(toJobForm({ ...picked, ids: ` ${ids[0]},\n\n${ids[1]} ` }).target).toEqual({ kind: 'devices', ids });
  });

  it('sends a local start time as an instant, and a cron schedule in the given time zone', () => {
    const base = initialJobValues(new URLSearchParams());
    const once = toJobForm({ ...base, when: 'once', at: '2031-05-04T03:02' });
    expect(once.schedule).toEqual({ kind: 'once', at: new Date('2031-05-04T03:02').toISOString() });
    expect(toJobForm({ ...base, when: 'cron', expression: '0 3 * * *' }, 'Europe/Berlin').schedule).toEqual({ kind: 'cron', expression: '0 3 * * *', timezone: 'Europe/Berlin' });
    expect(jobFormSchema.safeParse(toJobForm({ ...base, command: { name: 'ping', parameters: [] } })).success).toBe(true);
  });

  it("puts the API's field errors under the page's fields", () => {
    expect(toFormErrors({ target: 'The target matches no device you can reach.', 'target.ids.3': 'Each device must be an id.', 'schedule.expression': 'bad', 'command.name': 'x' })).toEqual({
      targetKind: 'The target matches no device you can reach.',
      ids: 'Each device must be an id.',
      expression: 'bad',
      'command.name': 'x',
    });
  });
});
