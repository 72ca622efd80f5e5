import { z } from 'zod';
import { messages, requiredText, withoutControlCharacters } from './messages.js';

export const MONITOR_NAME_MAX = 128;
export const MONITOR_PATH_MAX = 255;
/** Monitors of one device: each is evaluated at every heartbeat and reported in one message. */
export const MONITORS_PER_DEVICE_MAX = 50;

/** SPEC §3: UPDATE watches when the path last changed, VERSION what version it declares, SIZE its bytes. */
export const monitorTypes = ['UPDATE', 'VERSION', 'SIZE'] as const;
export const monitorTypeSchema = z.enum(monitorTypes, { error: messages.required('Type') });
export type MonitorType = z.infer<typeof monitorTypeSchema>;

/** How a type reads in the form's choice. */
export const monitorTypeLabel: Record<MonitorType, string> = { UPDATE: 'Last update', VERSION: 'Version', SIZE: 'Size' };

/** `/x`, `C:\x` or `\\server\share`: the agent reads nothing relative to wherever it happens to run. */
const ABSOLUTE_PATH = /^(\/|[A-Za-z]:[\\/]|\\\\)/;

/**
 * The monitor form (SPEC §5): the same schema validates the Monitor form and the bodies of
 * POST /api/device/{id}/monitor and PUT /api/device/{id}/monitor/{monitorId}.
 */
export const monitorFormSchema = z.object({
  name: requiredText('Name', MONITOR_NAME_MAX).refine(withoutControlCharacters, 'Name cannot contain control characters.'),
  type: monitorTypeSchema.default('UPDATE'),
  path: requiredText('Path', MONITOR_PATH_MAX)
    .refine(withoutControlCharacters, 'Path cannot contain control characters.')
    .refine((p) => ABSOLUTE_PATH.test(p), 'Path must be absolute: start it with / (or a drive such as C:\\).'),
});
export type MonitorForm = z.infer<typeof monitorFormSchema>;
export type MonitorFormInput = z.input<typeof monitorFormSchema>;

/** Initial values of a new monitor (SPEC §5: type UPDATE). */
export const monitorFormDefaults = { name: '', type: 'UPDATE' as MonitorType, path: '' };
