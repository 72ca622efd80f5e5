import { AuditKind } from '@fleetlink/contract';
import type { AuditTrail } from '../modules/audit/audit-trail.js';
import type { AccountStore, IdpAccount } from './accounts.js';

/** What the audit trail keeps of a login someone typed: enough to read, never a whole paste. */
const LOGIN_KEPT = 255;

export const INVALID_CREDENTIALS = 'Invalid email or password.';

/**
 * A password sign-in at the built-in provider, recorded in the audit trail whichever way it ends,
 * with the address it came from (the provider's own routes serve the form; this decides).
 */
export class PasswordSignIn {
  constructor(
    private readonly accounts: Pick<AccountStore, 'authenticate'>,
    private readonly audit: AuditTrail,
  ) {}

  async attempt(login: string, password: string, clientAddress: string): Promise<IdpAccount | undefined> {
    const account = await this.accounts.authenticate(login, password);
    const actor = account
      ? { username: account.email, subject: account.id, clientAddress }
      : { username: login.trim().toLowerCase().slice(0, LOGIN_KEPT), subject: null, clientAddress };
    await this.audit.record(actor, { kind: AuditKind.SignIn }, { error: account ? null : INVALID_CREDENTIALS });
    return account;
  }
}
