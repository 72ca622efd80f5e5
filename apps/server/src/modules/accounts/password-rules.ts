import { newPasswordSchema } from '@fleetlink/contract';
import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * The passwords people pick most often (zxcvbn-ts's list of about 49,000, maintained with it): a
 * password found there is refused, whatever its length. Lower case, as the check compares.
 */
const COMMON = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));

/**
 * Why a password a person chose cannot be taken (issue 72), or undefined when it can: at least
 * 12 characters, not a common password, not the account's own email.
 */
export function passwordRefusal(password: string, email: string): string | undefined {
  const parsed = newPasswordSchema.safeParse(password);
  if (!parsed.success) return parsed.error.issues[0]!.message;
  const lower = password.toLowerCase();
  if (COMMON.has(lower)) return 'This password is one of the most common ones: choose another.';
  if (lower === email.toLowerCase() || lower === email.toLowerCase().split('@')[0]) return 'The password cannot be your email address.';
  return undefined;
}
