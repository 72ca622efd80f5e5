import { z } from 'zod';
import { messages, requiredText, withoutControlCharacters } from '../forms/messages.js';
import { pageSizeSchema } from './page-size.js';

/**
 * The built-in provider's accounts (issue 72): a realm ADMIN lists, invites, changes, disables and
 * deletes the people who sign in there. Only while the built-in provider is the console's issuer.
 */
export const accountLimits = {
  email: 254,
  name: 100,
  search: 100,
  pageSize: 100,
  /** Fewest characters of a password a person chooses. */
  passwordMin: 12,
  /** Scrypt's input stays small: a longer "password" is a paste gone wrong. */
  passwordMax: 256,
  /** Days an invitation link opens. */
  invitationDays: 7,
  /** Minutes a password reset link opens. */
  resetMinutes: 60,
  /** "Forgot password?" asked per hour: for one email, and from one address. */
  resetsPerEmail: 3,
  resetsPerAddress: 10,
} as const;

/** The realm roles an account can be given here: USER (the console), ADMIN (operator pages) with it, or none (a guest). */
export const accountRoleChoices = ['NONE', 'USER', 'ADMIN'] as const;
export type AccountRoleChoice = (typeof accountRoleChoices)[number];
export const accountRoleLabels: Record<AccountRoleChoice, string> = { NONE: 'No role (guest)', USER: 'User', ADMIN: 'Admin' };
/** The realm roles each choice grants: an ADMIN is a USER too, as the seeded admin is. */
export const realmRolesOf = (choice: AccountRoleChoice): string[] => (choice === 'ADMIN' ? ['USER', 'ADMIN'] : choice === 'USER' ? ['USER'] : []);
export const roleChoiceOf = (realmRoles: readonly string[]): AccountRoleChoice => (realmRoles.includes('ADMIN') ? 'ADMIN' : realmRoles.includes('USER') ? 'USER' : 'NONE');

const roleSchema = z.enum(accountRoleChoices, { error: `Role must be one of ${accountRoleChoices.join(', ')}.` });
const nameSchema = requiredText('Name', accountLimits.name).refine(withoutControlCharacters, messages.controlCharacters('Name'));

export const accountCreateSchema = z.object({
  email: requiredText('Email', accountLimits.email)
    .pipe(z.email({ error: messages.email('Email') }))
    .transform((e) => e.toLowerCase()),
  name: nameSchema,
  role: roleSchema.default('USER'),
});
export type AccountCreateInput = z.input<typeof accountCreateSchema>;
export type AccountCreate = z.output<typeof accountCreateSchema>;

/** What an ADMIN changes of an account; each field only when given. */
export const accountUpdateSchema = z.object({
  name: nameSchema.optional(),
  role: roleSchema.optional(),
  /** True keeps the person out and stops their sessions and tokens at once; false lets them in again. */
  disabled: z.boolean({ error: 'Disabled must be true or false.' }).optional(),
});
export type AccountUpdate = z.output<typeof accountUpdateSchema>;

export const accountParamsSchema = z.object({ id: z.string().trim().min(1, 'The account id is not valid.').max(64, 'The account id is not valid.') });

export const accountListQuerySchema = z.object({
  search: z.string().trim().max(accountLimits.search, messages.maxLength('Search', accountLimits.search)).optional(),
  page: z.coerce.number({ error: 'Page must be a number.' }).int('Page must be a whole number.').min(0, 'Page must be at least 0.').default(0),
  size: pageSizeSchema(accountLimits.pageSize, 25),
});

export const accountSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: roleSchema,
  realmRoles: z.array(z.string()),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
  disabled: z.boolean(),
  /** Invited and no password chosen yet. */
  invited: z.boolean(),
});
export type Account = z.infer<typeof accountSchema>;

export const accountListSchema = z.object({ items: z.array(accountSchema), total: z.number().int() });
export type AccountList = z.infer<typeof accountListSchema>;

/**
 * An invitation made or sent again: mailed when the console has SMTP_URL; when it has not, or the
 * mail server refused it, `link` is the one-time link to hand over (in this answer only: the
 * console keeps its hash) and `mailError` says why it was not mailed.
 */
export const accountInvitationSchema = z.object({
  account: accountSchema,
  mailed: z.boolean(),
  mailError: z.string().nullable(),
  link: z.string().nullable(),
  expiresAt: z.string(),
});
export type AccountInvitation = z.infer<typeof accountInvitationSchema>;

/** The password a person chooses on an invitation or reset page. */
export const newPasswordSchema = z
  .string({ error: messages.required('Password') })
  .min(1, messages.required('Password'))
  .min(accountLimits.passwordMin, `The password must be at least ${accountLimits.passwordMin} characters.`)
  .max(accountLimits.passwordMax, messages.maxLength('Password', accountLimits.passwordMax));

/** The signed-in person's own account at the built-in provider: their name and password (issue 72). */
export const myAccountSchema = z.object({ email: z.string(), name: z.string(), lastSignInAt: z.string().nullable() });
export type MyAccount = z.infer<typeof myAccountSchema>;

/** A new name, or a new password with the current one (proving it is them at the keyboard). */
export const myAccountUpdateSchema = z.object({
  name: nameSchema.optional(),
  currentPassword: z.string().max(accountLimits.passwordMax, messages.maxLength('Current password', accountLimits.passwordMax)).optional(),
  newPassword: newPasswordSchema.optional(),
});
export type MyAccountUpdate = z.output<typeof myAccountUpdateSchema>;

/** Served only while the built-in provider is the console's issuer. */
export const accountRoutes = {
  mine: { method: 'GET', path: '/account', role: 'LOGIN' },
  changeMine: { method: 'PUT', path: '/account', role: 'LOGIN', errors: [429] },
  list: { method: 'GET', path: '/accounts', role: 'ADMIN' },
  create: { method: 'POST', path: '/accounts', role: 'ADMIN', errors: [409] },
  update: { method: 'PUT', path: '/accounts/:id', role: 'ADMIN', errors: [409] },
  remove: { method: 'DELETE', path: '/accounts/:id', role: 'ADMIN', errors: [409] },
  invite: { method: 'POST', path: '/accounts/:id/invitation', role: 'ADMIN', errors: [409] },
} as const;
