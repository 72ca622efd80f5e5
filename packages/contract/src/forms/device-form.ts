import { z } from 'zod';
import { messages, requiredText } from './messages.js';

export const DEVICE_NAME_MAX = 64;
export const DEVICE_DESCRIPTION_MAX = 1024;
export const DEVICE_TAG_MAX = 64;
export const DEVICE_TAGS_MAX = 32;

export const deviceBranchSchema = z.enum(['PRODUCTION', 'ACCEPTANCE']);
export type DeviceBranch = z.infer<typeof deviceBranchSchema>;
/** How a branch is shown to people (SPEC §2 Summary). */
export const deviceBranchLabel: Record<DeviceBranch, string> = { PRODUCTION: 'Stable', ACCEPTANCE: 'Early access' };

/**
 * The device form (SPEC §5): the same schema validates the SPA form and the API body of
 * POST /api/device and PUT /api/device/{id}, so both reject the same input with the same words.
 */
export const deviceFormSchema = z.object({
  organization: z.uuid({ error: messages.required('Organization') }),
  name: requiredText('Name', DEVICE_NAME_MAX),
  description: z
    .string({ error: 'Description must be text.' })
    .max(DEVICE_DESCRIPTION_MAX, messages.maxLength('Description', DEVICE_DESCRIPTION_MAX))
    .nullish(),
  branch: z.enum(['PRODUCTION', 'ACCEPTANCE'], { error: messages.required('Branch') }),
  tags: z
    .array(
      z
        .string({ error: 'Tags must be text.' })
        .trim()
        .min(1, messages.required('Tag'))
        .max(DEVICE_TAG_MAX, messages.maxLength('Tag', DEVICE_TAG_MAX)),
      { error: 'Tags must be a list of text.' },
    )
    .max(DEVICE_TAGS_MAX, `A device can have at most ${DEVICE_TAGS_MAX} tags.`)
    .optional(),
});
export type DeviceForm = z.infer<typeof deviceFormSchema>;
export type DeviceFormInput = z.input<typeof deviceFormSchema>;

/** Initial values of a new device form (SPEC §5: name 'new device', branch PRODUCTION). */
export const deviceFormDefaults = {
  organization: '',
  name: 'new device',
  description: '',
  branch: 'PRODUCTION' as DeviceBranch,
  tags: [] as string[],
};
