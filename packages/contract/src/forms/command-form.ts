import { z } from 'zod';
import { messages, requiredText } from './messages.js';

export const COMMAND_NAME_MAX = 64;
export const COMMAND_PARAMETER_NAME_MAX = 64;
/** A shell command or a short script fits; a pasted file belongs in an upload. */
export const COMMAND_PARAMETER_VALUE_MAX = 16_384;
export const COMMAND_PARAMETERS_MAX = 32;

export const commandParameterSchema = z.object({
  name: requiredText('Name', COMMAND_PARAMETER_NAME_MAX),
  // Values are passed as typed (leading spaces may matter to a shell), but blank is no value.
  value: z
    .string({ error: messages.required('Value') })
    .refine((v) => v.trim().length > 0, messages.required('Value'))
    .max(COMMAND_PARAMETER_VALUE_MAX, messages.maxLength('Value', COMMAND_PARAMETER_VALUE_MAX)),
});
export type CommandParameter = z.infer<typeof commandParameterSchema>;

/**
 * The command form (SPEC §5): the same schema validates the Command page and the body of
 * POST /api/device/{id}/command, so both reject the same input with the same words.
 */
export const commandFormSchema = z.object({
  name: requiredText('Command', COMMAND_NAME_MAX),
  parameters: z
    .array(commandParameterSchema, { error: 'Parameters must be a list of name and value.' })
    .max(COMMAND_PARAMETERS_MAX, `A command can have at most ${COMMAND_PARAMETERS_MAX} parameters.`)
    .default([])
    .superRefine((rows, ctx) => {
      // The device reads parameters by name: a second row with the same name would be lost.
      const seen = new Set<string>();
      rows.forEach((row, i) => {
        const name = row.name.trim();
        if (seen.has(name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `Name '${name}' is used twice.` });
        seen.add(name);
      });
    }),
});
export type CommandForm = z.infer<typeof commandFormSchema>;
export type CommandFormInput = z.input<typeof commandFormSchema>;

/** Initial values of the Command page (SPEC §5: command 'execute', a first row named 'command'). */
export const commandFormDefaults = { name: 'execute', parameters: [{ name: 'command', value: '' }] };
