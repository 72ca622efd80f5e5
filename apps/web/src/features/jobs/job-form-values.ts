import { commandFormDefaults, JOB_EXPIRY_HOURS_DEFAULT, type CommandFormInput, type DeviceStatusFilter, type JobFormInput } from '@fleetlink/contract';

export type TargetKind = 'search' | 'tag' | 'organization' | 'devices';
export type WhenKind = 'now' | 'once' | 'cron';

/** The job form as the page holds it: one field per input, turned into the API's form on submit. */
export interface JobFormValues {
  command: CommandFormInput;
  targetKind: TargetKind;
  search: string;
  status: '' | DeviceStatusFilter;
  tag: string;
  organizationId: string;
  /** Device ids, one per line (or separated by commas or spaces). */
  ids: string;
  expiryHours: number | string;
  when: WhenKind;
  /** A local date and time, as `<input type="datetime-local">` gives it. */
  at: string;
  expression: string;
}

/** The form's first values; `params` prefill the target (from /devices/search: its search and tab). */
export function initialJobValues(params: URLSearchParams): JobFormValues {
  const ids = params.getAll('id');
  const status = params.get('status');
  return {
    command: { name: commandFormDefaults.name, parameters: commandFormDefaults.parameters.map((p) => ({ ...p })) },
    targetKind: ids.length ? 'devices' : params.has('tag') ? 'tag' : params.has('organization') ? 'organization' : 'search',
    search: params.get('search') ?? '',
    status: status === 'online' || status === 'offline' ? status : '',
    tag: params.get('tag') ?? '',
    organizationId: params.get('organization') ?? '',
    ids: ids.join('\n'),
    expiryHours: JOB_EXPIRY_HOURS_DEFAULT,
    when: 'now',
    at: '',
    expression: '0 3 * * *',
  };
}

/** The API's form from the page's values, in the browser's time zone. */
export function toJobForm(v: JobFormValues, timezone = Intl.DateTimeFormat().resolvedOptions().timeZone): JobFormInput {
  const target: JobFormInput['target'] =
    v.targetKind === 'search'
      ? { kind: 'search', ...(v.search.trim() ? { search: v.search.trim() } : {}), ...(v.status ? { status: v.status } : {}) }
      : v.targetKind === 'tag'
        ? { kind: 'tag', tag: v.tag }
        : v.targetKind === 'organization'
          ? { kind: 'organization', organizationId: v.organizationId }
          : { kind: 'devices', ids: v.ids.split(/[\s,]+/).filter(Boolean) };
  const at = v.at ? new Date(v.at) : undefined;
  const schedule: JobFormInput['schedule'] =
    v.when === 'now'
      ? { kind: 'now' }
      : v.when === 'once'
        ? { kind: 'once', at: at && !Number.isNaN(at.getTime()) ? at.toISOString() : v.at }
        : { kind: 'cron', expression: v.expression, timezone };
  return { command: v.command, target, expiryHours: v.expiryHours === '' ? Number.NaN : Number(v.expiryHours), schedule };
}

/** Where an error of the API's form (a path such as `target.tag`) shows on the page's form. */
const FIELD_OF: Record<string, string> = {
  target: 'targetKind',
  'target.search': 'search',
  'target.status': 'status',
  'target.tag': 'tag',
  'target.organizationId': 'organizationId',
  'target.ids': 'ids',
  'schedule.at': 'at',
  'schedule.expression': 'expression',
  'schedule.timezone': 'expression',
};

/** The API's field errors as the page's: device id errors (`target.ids.3`) show under the ids. */
export function toFormErrors(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(fields)) {
    const field = FIELD_OF[path] ?? (path.startsWith('target.ids.') ? 'ids' : path);
    out[field] ??= message;
  }
  return out;
}
