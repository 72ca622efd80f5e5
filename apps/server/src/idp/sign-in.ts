import { AuditKind } from '@fleetlink/contract';
import type { AuditTrail } from '../modules/audit/audit-trail.js';
import type { AccountStore, IdpAccount } from './accounts.js';
import { waitText, type SignInLimits } from './sign-in-limits.js';

/** What the audit trail keeps of a login someone typed: enough to read, never a whole paste. */
const LOGIN_KEPT = 255;

export const INVALID_CREDENTIALS = 'Invalid email or password.';
export const ACCOUNT_DISABLED = 'This account is disabled: ask your Fleetlink administrator.';

export type SignInResult =
  | { account: IdpAccount }
  | { error: string }
  /** Too many failed attempts: refused without looking at the password. */
  | { error: string; retryAfterSeconds: number };

/**
 * A password sign-in at the built-in provider, within the guessing limits, recorded in the audit
 * trail whichever way it ends, with the address it came from (the provider's own routes serve the
 * form; this decides).
 */
export class PasswordSignIn {
  constructor(
    private readonly accounts: Pick<AccountStore, 'authenticate' | 'signedIn'>,
    private readonly limits: SignInLimits,
    private readonly audit: AuditTrail,
  ) {}

  async attempt(typed: string, password: string, clientAddress: string): Promise<SignInResult> {
    const login = typed.trim().toLowerCase().slice(0, LOGIN_KEPT);
    const claim = await this.limits.claim(login, clientAddress);
    if (!claim.allowed) {
      const error =
        claim.by === 'account'
          ? `Too many failed sign-ins for this account. Try again in ${waitText(claim.retryAfterSeconds)}.`
          : `Too many failed sign-ins from your network address. Try again in ${waitText(claim.retryAfterSeconds)}.`;
      await this.record({ username: login, subject: null, clientAddress }, error);
      return { error, retryAfterSeconds: claim.retryAfterSeconds };
    }
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
    await this.accounts.signedIn(account.id);
    await this.record({ username: account.email, subject: account.id, clientAddress }, null);
    return { account: { id: account.id, email: account.email, name: account.name, realmRoles: account.realmRoles } };
  }

  private record(actor: { username: string; subject: string | null; clientAddress: string }, error: string | null) {
    return this.audit.record(actor, { kind: AuditKind.SignIn }, { error });
  }
}
