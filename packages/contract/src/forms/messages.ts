import { z } from 'zod';

/** The validation message formats of SPEC §5, shared by the API and the SPA so both say the same. */
export const messages = {
  required: (label: string) => `${label} is required.`,
  min: (label: string, min: number) => `${label} must be at least ${min}.`,
  // SPEC §5 words a maximum as 'less than'. Both take the largest value the rule accepts, the `n`
  // of `.max(n)`, and name the bound above it, so that the message is true of the rule it goes with.
  max: (label: string, max: number) => `${label} must be less than ${max + 1}.`,
  maxLength: (label: string, n: number) => `${label} must be less than ${n + 1} characters.`,
  email: (label: string) => `${label} is not a valid email address.`,
  pattern: (label: string) => `${label} is not a valid, it contain invalid characters.`,
  controlCharacters: (label: string) => `${label} cannot contain control characters.`,
};

/** C0 control characters and DEL: nothing a person types, and PostgreSQL cannot hold a NUL. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** For `.refine`: true when the text holds no control character. */
export const withoutControlCharacters = (text: string) => !CONTROL_CHARACTER.test(text);

/** Text a person must give: trimmed, not empty, at most `max` characters, with SPEC §5's words. */
export const requiredText = (label: string, max: number) =>
  z
    .string({ error: messages.required(label) })
    .trim()
    .min(1, messages.required(label))
    .max(max, messages.maxLength(label, max));
