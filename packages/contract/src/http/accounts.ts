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
  /** Invitations an organization's manager (not a realm ADMIN) may send to new members in an hour. */
  memberInvitationsPerHour: 20,
  /** One-time recovery codes made when two-factor authentication is turned on (shown once, kept hashed). */
  recoveryCodes: 10,
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
  /** Signs in with an authenticator app's code after the password. */
  twoFactor: z.boolean(),
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
export const myAccountSchema = z.object({
  email: z.string(),
  name: z.string(),
  lastSignInAt: z.string().nullable(),
  twoFactor: z.object({
    enabled: z.boolean(),
    /** Recovery codes not used yet. */
    recoveryCodesLeft: z.number().int(),
    /** The realm requires it of this person (an ADMIN, while the requirement is on): it cannot be turned off. */
    required: z.boolean(),
  }),
});
export type MyAccount = z.infer<typeof myAccountSchema>;

/** A new name, or a new password with the current one (proving it is them at the keyboard). */
export const myAccountUpdateSchema = z.object({
  name: nameSchema.optional(),
  currentPassword: z.string().max(accountLimits.passwordMax, messages.maxLength('Current password', accountLimits.passwordMax)).optional(),
  newPassword: newPasswordSchema.optional(),
});
export type MyAccountUpdate = z.output<typeof myAccountUpdateSchema>;

/**
 * Two-factor authentication (issue 72): TOTP (RFC 6238) from an authenticator app. Setting it up
 * shows a new secret (its QR code and its text); it is on once a code from the app proves the app
 * holds it, and 10 one-time recovery codes are shown then, once.
 */
export const twoFactorSetupSchema = z.object({
  secret: z.string(),
  /** The otpauth:// URI the QR code holds. */
  uri: z.string(),
  /** The QR code, an SVG document the console made (not anything a person typed). */
  qrSvg: z.string(),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

/** A code from the authenticator app (6 digits; spaces ignored) or, where it says so, a recovery code. */
export const twoFactorCodeSchema = z.object({
  code: requiredText('Code', 32).transform((c) => c.replace(/[\s-]/g, '')),
});
export type TwoFactorCode = z.output<typeof twoFactorCodeSchema>;

export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** The realm's sign-in rules an ADMIN sets. */
export const accountSettingsSchema = z.object({
  /** Every ADMIN account signs in with a second factor; one without sets it up at its next sign-in. */
  adminTwoFactorRequired: z.boolean({ error: 'Required must be true or false.' }),
});
export type AccountSettings = z.infer<typeof accountSettingsSchema>;

/** Served only while the built-in provider is the console's issuer. */
export const accountRoutes = {
  mine: { method: 'GET', path: '/account', role: 'LOGIN' },
  changeMine: { method: 'PUT', path: '/account', role: 'LOGIN', errors: [429] },
  list: { method: 'GET', path: '/accounts', role: 'ADMIN' },
  create: { method: 'POST', path: '/accounts', role: 'ADMIN', errors: [409] },
  update: { method: 'PUT', path: '/accounts/:id', role: 'ADMIN', errors: [409] },
  remove: { method: 'DELETE', path: '/accounts/:id', role: 'ADMIN', errors: [409] },
  invite: { method: 'POST', path: '/accounts/:id/invitation', role: 'ADMIN', errors: [409] },
  resetTwoFactor: { method: 'DELETE', path: '/accounts/:id/two-factor', role: 'ADMIN', errors: [409] },
  settings: { method: 'GET', path: '/account-settings', role: 'ADMIN' },
  changeSettings: { method: 'PUT', path: '/account-settings', role: 'ADMIN', errors: [409] },
  twoFactorSetup: { method: 'POST', path: '/account/two-factor/setup', role: 'LOGIN' },
  twoFactorEnable: { method: 'POST', path: '/account/two-factor', role: 'LOGIN', errors: [429] },
  twoFactorRecoveryCodes: { method: 'POST', path: '/account/two-factor/recovery-codes', role: 'LOGIN', errors: [409, 429] },
  twoFactorDisable: { method: 'POST', path: '/account/two-factor/disable', role: 'LOGIN', errors: [409, 429] },
} as const;
