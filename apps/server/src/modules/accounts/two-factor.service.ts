import { AuditKind, type AccountSettings, type MyAccount, type RecoveryCodes, type TwoFactorSetup } from '@fleetlink/contract';
import { badRequest, conflict, notFound } from '../../lib/app-error.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { Actor, AuditTrail } from '../audit/audit-trail.js';
import { sha256 } from '../enrollment/credentials.js';
import { sealedAs } from '../system/secrets-at-rest.js';
import { countTry, type HitCounter } from './counted-tries.js';
import { newRecoveryCodes, newTotpSecret, normalRecoveryCode, qrSvg, totpStep, totpUri } from './totp.js';
import type { TwoFactorRepository, TwoFactorRow } from './two-factor.repository.js';

/** Codes a person may try at their profile in a window (turning it on, off, new recovery codes): each is a guess. */
const CODE_TRIES = 10;
const CODE_TRIES_WINDOW_MS = 15 * 60_000;

export const WRONG_CODE = 'The code is not right: type the one your authenticator app shows now.';
export const WRONG_CODE_OR_RECOVERY = 'The code is not right: type the one your authenticator app shows now, or one of your recovery codes.';

/** Which second factor a sign-in (or a change) was proven with. */
export type SecondFactorUsed = 'totp' | 'recovery-code';

/** What the sign-in asks after a right password: nothing more, a code, or setting the app up first. */
export type SecondStep = 'none' | 'code' | 'enrol';

/**
 * Two-factor authentication of the built-in provider's accounts (issue 72): TOTP from an
 * authenticator app, its secret sealed at rest, each code accepted once; ten one-time recovery
 * codes, kept hashed. A realm ADMIN may require it of every ADMIN account, and reset a person's.
 */
export class TwoFactorService {
  constructor(
    private readonly repo: TwoFactorRepository,
    private readonly box: SecretBox,
    private readonly audit: AuditTrail,
    private readonly o: { hit: HitCounter; now?: () => Date },
  ) {}

  private now(): Date {
    return this.o.now?.() ?? new Date();
  }

  async status(accountId: string): Promise<MyAccount['twoFactor']> {
    const row = await this.found(accountId);
    return {
      enabled: row.totpSecret !== null,
      recoveryCodesLeft: row.totpSecret !== null ? await this.repo.recoveryCodesLeft(row.id) : 0,
      required: row.required,
    };
  }

  /** After a right password: what the sign-in asks next. */
  async secondStep(accountId: string): Promise<SecondStep> {
    const row = await this.found(accountId);
    if (row.totpSecret !== null) return 'code';
    return row.required ? 'enrol' : 'none';
  }

  /** A new secret to set the app up with; it is on once `enable` gets a code it made. */
  async setup(accountId: string): Promise<TwoFactorSetup> {
    const row = await this.found(accountId);
    if (row.totpSecret !== null) throw conflict('Two-factor authentication is on already: turn it off first to set up another app.');
    const secret = newTotpSecret();
    await this.repo.setPending(row.id, this.box.seal(secret, sealedAs.totpPendingSecret));
    return this.shown(secret, row.email);
  }

  /** The setting-up secret shown again (the sign-in page after a wrong code). */
  async pendingSetup(accountId: string): Promise<TwoFactorSetup | undefined> {
    const row = await this.found(accountId);
    if (row.totpPendingSecret === null) return undefined;
    return this.shown(this.box.open(row.totpPendingSecret, sealedAs.totpPendingSecret), row.email);
  }

  private async shown(secret: string, email: string): Promise<TwoFactorSetup> {
    const uri = totpUri(secret, email);
    return { secret, uri, qrSvg: await qrSvg(uri) };
  }

  /** Turns it on with a code the app made from the pending secret: the recovery codes, shown this once; null for a wrong code. */
  async enable(actor: Actor, accountId: string, code: string): Promise<RecoveryCodes | null> {
    const row = await this.found(accountId);
    if (row.totpSecret !== null) throw conflict('Two-factor authentication is on already.');
    if (row.totpPendingSecret === null) throw conflict('Set up two-factor authentication first: the page shows the code to scan.');
    const pending = this.box.open(row.totpPendingSecret, sealedAs.totpPendingSecret);
    const step = await totpStep(pending, code, null);
    if (step === null) return null;
    const recoveryCodes = newRecoveryCodes();
    // Sealed anew: a seal is bound to its column, and the pending one's does not open as the secret in use.
    const secret = this.box.seal(pending, sealedAs.totpSecret);
    await this.audit.track(actor, { kind: AuditKind.AccountTwoFactorEnable, details: { accountId: row.id, email: row.email } }, async () => {
      if (!(await this.repo.enable(row.id, row.totpPendingSecret!, secret, step, recoveryCodes.map(hashCode), this.now()))) {
        throw conflict('Two-factor authentication was set up again meanwhile (another tab?): scan the newest code.');
      }
    });
    return { recoveryCodes };
  }

  /** Whether `code` is a right second factor for the account now, using it up; null when not. */
  async check(accountId: string, code: string): Promise<SecondFactorUsed | null> {
    return this.checkRow(await this.found(accountId), code);
  }

  private async checkRow(row: TwoFactorRow, code: string): Promise<SecondFactorUsed | null> {
    if (row.totpSecret === null) return null;
    const step = await totpStep(this.box.open(row.totpSecret, sealedAs.totpSecret), code, row.totpLastStep);
    if (step !== null) return (await this.repo.useStep(row.id, step)) ? 'totp' : null;
    const recovery = normalRecoveryCode(code);
    if (recovery.length !== 10) return null;
    return (await this.repo.useRecoveryCode(row.id, hashCode(recovery), this.now())) ? 'recovery-code' : null;
  }

  /** The person's own: new recovery codes in place of the old ones, with a code from the app (or a recovery code). */
  async newRecoveryCodes(actor: Actor, accountId: string, code: string): Promise<RecoveryCodes> {
    const row = await this.proven(await this.found(accountId), code);
    const recoveryCodes = newRecoveryCodes();
    await this.audit.track(actor, { kind: AuditKind.AccountRecoveryCodes, details: { accountId: row.id, email: row.email } }, () =>
      this.repo.replaceRecoveryCodes(row.id, recoveryCodes.map(hashCode)),
    );
    return { recoveryCodes };
  }

  /** The person turns it off, with a code (or a recovery code); not while the realm requires it of them. */
  async disable(actor: Actor, accountId: string, code: string): Promise<void> {
    const row = await this.found(accountId);
    if (row.required) throw conflict('Two-factor authentication is required for administrators here: it stays on.');
    await this.proven(row, code);
    await this.audit.track(actor, { kind: AuditKind.AccountTwoFactorDisable, details: { accountId: row.id, email: row.email, by: 'self' } }, () => this.repo.disable(row.id));
  }

  /** An ADMIN resets a person's second factor (a lost phone): they sign in with the password alone, or set it up again where required. */
  async reset(actor: Actor, accountId: string): Promise<void> {
    const row = await this.found(accountId);
    if (row.totpSecret === null && row.totpPendingSecret === null) throw conflict(`${row.email} has no two-factor authentication to reset.`);
    await this.audit.track(actor, { kind: AuditKind.AccountTwoFactorReset, details: { accountId: row.id, email: row.email } }, () => this.repo.disable(row.id));
  }

  async settings(): Promise<AccountSettings> {
    return { adminTwoFactorRequired: await this.repo.adminTwoFactorRequired() };
  }

  async changeSettings(actor: Actor, settings: AccountSettings): Promise<AccountSettings> {
    await this.audit.track(actor, { kind: AuditKind.AccountSettings, details: { ...settings } }, () => this.repo.setAdminTwoFactorRequired(settings.adminTwoFactorRequired));
    return this.settings();
  }

  /** The account, once a code (tries limited) proved its person holds the second factor. */
  private async proven(row: TwoFactorRow, code: string): Promise<TwoFactorRow> {
    if (row.totpSecret === null) throw conflict('Two-factor authentication is off.');
    await this.countCodeTry(row.id);
    if (!(await this.checkRow(row, code))) throw badRequest(WRONG_CODE_OR_RECOVERY, { code: WRONG_CODE_OR_RECOVERY });
    return row;
  }

  /** Turning it on at the profile: the codes typed there are limited too. */
  async enableLimited(actor: Actor, accountId: string, code: string): Promise<RecoveryCodes> {
    await this.countCodeTry(accountId);
    const enabled = await this.enable(actor, accountId, code);
    if (!enabled) throw badRequest(WRONG_CODE, { code: WRONG_CODE });
    return enabled;
  }

  private countCodeTry(accountId: string): Promise<void> {
    return countTry(this.o.hit, `two-factor-code:${accountId}`, { max: CODE_TRIES, windowMs: CODE_TRIES_WINDOW_MS, refusal: 'Too many codes were tried: try again in 15 minutes.' });
  }

  private async found(accountId: string): Promise<TwoFactorRow> {
    const row = await this.repo.find(accountId);
    if (!row) throw notFound('The account does not exist.');
    return row;
  }
}

/** Recovery codes carry about 49 random bits: a plain hash keeps a copied table from opening them. */
const hashCode = (code: string) => sha256(normalRecoveryCode(code));
