import { z } from 'zod';
import { messages, requiredText, withoutControlCharacters } from '../forms/messages.js';

/** SPEC §9: contact name max 32. The SPEC gives no other limit; these keep a message a message. */
export const contactLimits = { name: 32, email: 254, message: 5000, captcha: 20_000 } as const;

/** Why a CAPTCHA answer is refused, under the field: each time the person solves it again. */
export const captchaMessages = {
  invalid: 'The CAPTCHA answer is not valid. Solve the CAPTCHA again.',
  expired: 'The CAPTCHA has expired. Solve it again.',
  used: 'This CAPTCHA answer was used already. Solve the CAPTCHA again.',
} as const;

/** Everything but the line breaks and tabs a multi-line message holds. */
const CONTROL_EXCEPT_LAYOUT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * SPEC §5 Contact: name required max 32; email required and valid; message required; captcha
 * required. The same schema checks the form and the body of POST /api/contact. `captcha` is the
 * ALTCHA widget's payload (base64 JSON of the challenge and its solution), checked by the service.
 */
export const contactFormSchema = z.object({
  name: requiredText('Name', contactLimits.name).refine(withoutControlCharacters, 'Name cannot contain control characters.'),
  email: requiredText('Email', contactLimits.email).pipe(z.email({ error: messages.email('Email') })),
  message: requiredText('Message', contactLimits.message).refine((m) => !CONTROL_EXCEPT_LAYOUT.test(m), 'Message cannot contain control characters.'),
  captcha: z
    .string({ error: messages.required('CAPTCHA') })
    .min(1, messages.required('CAPTCHA'))
    .max(contactLimits.captcha, captchaMessages.invalid),
});
export type ContactFormInput = z.input<typeof contactFormSchema>;
export type ContactForm = z.output<typeof contactFormSchema>;

/**
 * An ALTCHA proof-of-work challenge (PoW v2) as the widget fetches it: its parameters, signed by
 * the console. Parameters are passed through as the library made them.
 */
export const contactChallengeSchema = z.object({
  parameters: z.looseObject({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number(),
    keyLength: z.number(),
    keyPrefix: z.string(),
    expiresAt: z.number().optional(),
  }),
  signature: z.string(),
});
export type ContactChallenge = z.infer<typeof contactChallengeSchema>;

/** What became of a message's mail to the operator. */
export const contactMailStatuses = ['NOT_CONFIGURED', 'SENDING', 'SENT', 'FAILED'] as const;
export type ContactMailStatus = (typeof contactMailStatuses)[number];

/** SPEC §3 Contact message, as the operator reads it (newest first on /operator). */
export const contactMessageSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  message: z.string(),
  /** The account that sent it (its username), whatever email it gave in the form. */
  sentBy: z.string(),
  clientAddress: z.string().nullable(),
  createdAt: z.string(),
  mailStatus: z.enum(contactMailStatuses),
  /** Why the mail server refused it, when it did. */
  mailError: z.string().nullable(),
});
export type ContactMessage = z.infer<typeof contactMessageSchema>;

/** The newest messages, and how many there are in all. */
export const CONTACT_MESSAGES_PAGE = 50;
export const contactMessageListSchema = z.object({ items: z.array(contactMessageSchema), total: z.number().int() });
export type ContactMessageList = z.infer<typeof contactMessageListSchema>;

export const contactSentSchema = z.object({ id: z.string() });
export type ContactSent = z.infer<typeof contactSentSchema>;

/** SPEC §7 contact, served under /api: sending needs only a sign-in (SPEC §6), reading realm ADMIN. */
export const contactRoutes = {
  challenge: { method: 'GET', path: '/contact/challenge', role: 'LOGIN' },
  send: { method: 'POST', path: '/contact', role: 'LOGIN', errors: [429] },
  list: { method: 'GET', path: '/contact/messages', role: 'ADMIN' },
} as const;
