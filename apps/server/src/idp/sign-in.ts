import { AuditKind, type RecoveryCodes } from '@fleetlink/contract';
import type { AuditTrail } from '../modules/audit/audit-trail.js';
import type { SecondFactorUsed, SecondStep, TwoFactorService } from '../modules/accounts/two-factor.service.js';
import { WRONG_CODE, WRONG_CODE_OR_RECOVERY } from '../modules/accounts/two-factor.service.js';
import type { AccountStore, IdpAccount } from './accounts.js';
import { waitText, type Claim, type SignInLimits } from './sign-in-limits.js';

/** What the audit trail keeps of a login someone typed: enough to read, never a whole paste. */
const LOGIN_KEPT = 255;

export const INVALID_CREDENTIALS = 'Invalid email or password.';
export const ACCOUNT_DISABLED = 'This account is disabled: ask your Fleetlink administrator.';

type Refusal =
  | { error: string }
  /** Too many failed attempts: refused without looking at the password or code. */
  | { error: string; retryAfterSeconds: number };

/** After a right password: signed in, or the second step it must take first (issue 72). */
export type SignInResult = { account: IdpAccount; next: SecondStep } | Refusal;

/** Who is between the password and the second step, as the sign-in's interaction keeps it. */
export interface PendingSignIn {
  accountId: string;
  email: string;
}

/**
 * A sign-in at the built-in provider: the password, then (where the account has it, or the realm
 * requires it of an ADMIN) the second factor, each within the guessing limits (the second factor
 * counted per account apart from the password, so a right password does not wipe the codes guessed),
 * recorded in the audit trail whichever way it ends, with the address it came from and the second
 * factor used (the provider's own routes serve the forms; this decides).
 */
export class PasswordSignIn {
  constructor(
    private readonly accounts: Pick<AccountStore, 'authenticate' | 'signedIn'>,
    private readonly limits: SignInLimits,
    private readonly audit: AuditTrail,
    private readonly twoFactor: Pick<TwoFactorService, 'secondStep' | 'check' | 'enable'>,
  ) {}

  async attempt(typed: string, password: string, clientAddress: string): Promise<SignInResult> {
    const login = typed.trim().toLowerCase().slice(0, LOGIN_KEPT);
    const claim = await this.limits.claim(login, clientAddress);
    if (!claim.allowed) return this.refused(claim, { username: login, subject: null, clientAddress });
    const account = await this.accounts.authenticate(login, password);
    if (!account) {
      await this.record({ username: login, subject: null, clientAddress }, INVALID_CREDENTIALS);
      return { error: INVALID_CREDENTIALS };
    }
    await this.limits.succeeded(login, clientAddress);
    if (account.disabled) {
      await this.record({ username: account.email, subject: account.id, clientAddress }, ACCOUNT_DISABLED);
      return { error: ACCOUNT_DISABLED };
    }
    const signedIn = { id: account.id, email: account.email, name: account.name, realmRoles: account.realmRoles };
    const next = await this.twoFactor.secondStep(account.id);
    if (next === 'none') await this.succeeded(signedIn, clientAddress, 'none');
    return { account: signedIn, next };
  }

  /** The code (or a recovery code) after the password; the sign-in is done when it is right. */
  async secondFactor(pending: PendingSignIn, code: string, clientAddress: string): Promise<{ used: SecondFactorUsed } | Refusal> {
    return this.withCode(pending, clientAddress, WRONG_CODE_OR_RECOVERY, async () => {
      const used = await this.twoFactor.check(pending.accountId, code);
      return used && { used };
    });
  }

  /** Setting the app up where the realm requires it: its first code turns it on and signs in; the recovery codes, shown once. */
  async enrol(pending: PendingSignIn, code: string, clientAddress: string): Promise<RecoveryCodes | Refusal> {
    const actor = { username: pending.email, subject: pending.accountId, clientAddress };
    return this.withCode(pending, clientAddress, WRONG_CODE, async () => this.twoFactor.enable(actor, pending.accountId, code), 'totp');
  }

  private async withCode<T extends object>(
    pending: PendingSignIn,
    clientAddress: string,
    wrong: string,
    check: () => Promise<T | null>,
    factor?: SecondFactorUsed,
  ): Promise<T | Refusal> {
    const actor = { username: pending.email, subject: pending.accountId, clientAddress };
    const key = `second-factor:${pending.accountId}`;
    const claim = await this.limits.claim(key, clientAddress);
    if (!claim.allowed) return this.refused(claim, actor);
    const passed = await check();
    if (!passed) {
      await this.record(actor, wrong, { secondFactor: factor ?? 'code' });
      return { error: wrong };
    }
    await this.limits.succeeded(key, clientAddress);
    await this.succeeded({ id: pending.accountId, email: pending.email }, clientAddress, factor ?? (passed as { used: SecondFactorUsed }).used);
    return passed;
  }

  private async refused(claim: Exclude<Claim, { allowed: true }>, actor: { username: string; subject: string | null; clientAddress: string }): Promise<Refusal> {
    const error =
      claim.by === 'account'
        ? `Too many failed sign-ins for this account. Try again in ${waitText(claim.retryAfterSeconds)}.`
        : `Too many failed sign-ins from your network address. Try again in ${waitText(claim.retryAfterSeconds)}.`;
    await this.record(actor, error);
    return { error, retryAfterSeconds: claim.retryAfterSeconds };
  }

  private async succeeded(account: { id: string; email: string }, clientAddress: string, secondFactor: SecondFactorUsed | 'none') {
    await this.accounts.signedIn(account.id);
    await this.record({ username: account.email, subject: account.id, clientAddress }, null, { secondFactor });
  }

  private record(actor: { username: string; subject: string | null; clientAddress: string }, error: string | null, details?: Record<string, unknown>) {
    return this.audit.record(actor, { kind: AuditKind.SignIn, ...(details ? { details } : {}) }, { error });
  }
}
