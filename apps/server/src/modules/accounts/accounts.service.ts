import { randomUUID } from 'node:crypto';
import {
  accountLimits,
  AuditKind,
  RealmRole,
  realmRolesOf,
  roleChoiceOf,
  type Account,
  type AccountCreate,
  type AccountInvitation,
  type AccountList,
  type AccountUpdate,
  type MyAccount,
  type MyAccountUpdate,
} from '@fleetlink/contract';
import { hasRole, type Principal } from '../../auth/principal.js';
import { hashPassword, verifyPassword } from '../../idp/accounts.js';
import { badRequest, conflict, notFound } from '../../lib/app-error.js';
import { newLinkToken } from '../../lib/link-token.js';
import { NO_MAIL_SERVER, type Mailer } from '../../lib/mailer.js';
import type { Actor, AuditTrail } from '../audit/audit-trail.js';
import { sha256 } from '../enrollment/credentials.js';
import { invitationMail, resetMail } from './account-mails.js';
import type { AccountStanding } from './account-standing.js';
import type { AccountRow, AccountsRepository } from './accounts.repository.js';
import { countTry, type HitCounter } from './counted-tries.js';
import { passwordRefusal } from './password-rules.js';
import type { TwoFactorService } from './two-factor.service.js';

const MINUTE_MS = 60_000;
/** Password changes a person may try in a window: the current password they type is a guess too. */
const PASSWORD_TRIES = 10;
const PASSWORD_TRIES_WINDOW_MS = 15 * 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Where a person chooses their password: the provider's page, the link's token in its query (logs redact it). */
export const PASSWORD_PAGE_PATH = '/idp/account/password';

export const accountOf = (row: AccountRow): Account => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: roleChoiceOf(row.realmRoles),
  realmRoles: row.realmRoles,
  createdAt: row.createdAt.toISOString(),
  lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
  disabled: !!row.disabledAt,
  invited: row.passwordHash === null,
  twoFactor: row.totpSecret !== null,
});

/** What a password link's page shows and does. */
export type PasswordLinkResult =
  | { account: AccountRow }
  /** The link does not open (used, expired, or its account disabled). */
  | { error: string; gone: true }
  /** The password was refused; the page asks again, for the link's email. */
  | { error: string; email: string };

export const LINK_GONE = 'This link has expired or was used already. Ask your Fleetlink administrator for a new one.';

/**
 * The people of the built-in provider (issue 72): a realm ADMIN invites them (a one-time link,
 * mailed or handed over), changes their role, disables and deletes them; the invited person chooses
 * a password on the provider's page. A disabled or deleted account's sessions and tokens stop at
 * once on every console (AccountStanding).
 */
export class AccountsService {
  constructor(
    private readonly repo: AccountsRepository,
    private readonly standing: AccountStanding,
    private readonly audit: AuditTrail,
    private readonly twoFactor: Pick<TwoFactorService, 'status'>,
    private readonly o: {
      publicUrl: string;
      /** The console's mailer (SMTP_URL); without it, invitations are handed over as links. */
      mail?: Pick<Mailer, 'trySend'>;
      /** "Forgot password?", password changes and member invitations are limited on every console alike. */
      hit: HitCounter;
      log: { error(o: object, m: string): void };
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.o.now?.() ?? new Date();
  }

  async list(query: { search?: string; page: number; size: number }): Promise<AccountList> {
    const { rows, total } = await this.repo.page({ search: query.search || undefined, offset: query.page * query.size, limit: query.size });
    return { items: rows.map(accountOf), total };
  }

  async create(actor: Principal, form: AccountCreate): Promise<AccountInvitation> {
    return this.sendInvitation(actor, await this.insertAccount(actor, form), true);
  }

  private insertAccount(actor: Principal, form: AccountCreate): Promise<AccountRow> {
    return this.audit.track(
      actor,
      { kind: AuditKind.AccountCreate, details: { email: form.email, role: form.role } },
      async () => {
        const inserted = await this.repo.insert({ id: randomUUID(), email: form.email, name: form.name, realmRoles: realmRolesOf(form.role) });
        if (!inserted) throw conflict(`An account with the email ${form.email} exists already.`);
        return inserted;
      },
      (r) => ({ details: { accountId: r.id } }),
    );
  }

  async mine(actor: Principal): Promise<MyAccount> {
    const row = await this.found(actor.subject);
    return { email: row.email, name: row.name, lastSignInAt: row.lastSignInAt?.toISOString() ?? null, twoFactor: await this.twoFactor.status(row.id) };
  }

  /** A person changes their own name, or their password with the current one (tries limited: it is a password guess too). */
  async changeMine(actor: Principal, change: MyAccountUpdate): Promise<MyAccount> {
    const row = await this.found(actor.subject);
    const base = { accountId: row.id, email: row.email, by: 'self' };
    if (change.name !== undefined && change.name !== row.name) {
      await this.audit.track(actor, { kind: AuditKind.AccountUpdate, details: { ...base, name: change.name } }, () => this.repo.update(row.id, { name: change.name }));
    }
    if (change.newPassword !== undefined) {
      await countTry(this.o.hit, `password-change:${row.id}`, { max: PASSWORD_TRIES, windowMs: PASSWORD_TRIES_WINDOW_MS, refusal: 'Too many password changes were tried: try again in 15 minutes.' });
      if (!(await verifyPassword(change.currentPassword ?? '', row.passwordHash))) {
        throw badRequest('The current password is not right.', { currentPassword: 'The current password is not right.' });
      }
      const refusal = passwordRefusal(change.newPassword, row.email);
      if (refusal) throw badRequest(refusal, { newPassword: refusal });
      const passwordHash = await hashPassword(change.newPassword);
      await this.audit.track(actor, { kind: AuditKind.AccountPasswordSet, details: base }, () => this.repo.update(row.id, { passwordHash }));
    }
    return this.mine(actor);
  }

  /** Whether someone signs in (or is invited to) with this email. */
  async hasAccount(email: string): Promise<boolean> {
    return !!(await this.repo.findByEmail(email.toLowerCase()));
  }

  /**
   * An organization's manager invites a member who has no account (issue 72): a USER account named
   * after the email, and its invitation; one invited before is sent a new link.
   */
  async inviteMember(actor: Principal, email: string): Promise<AccountInvitation> {
    // The link opens the account of that email, and memberships are by email: only its owner may
    // hold it, so it goes by mail to them, and is handed over only by a realm ADMIN.
    const handOver = hasRole(actor, RealmRole.Admin);
    if (!handOver && !this.o.mail) throw conflict('This console cannot send mail: ask a Fleetlink administrator to invite them on Manage → People.');
    // Each is a mail to an address the manager typed: not a way to flood someone's inbox.
    if (!handOver) {
      const max = accountLimits.memberInvitationsPerHour;
      await countTry(this.o.hit, `member-invitations:${actor.subject}`, { max, windowMs: HOUR_MS, refusal: `You sent ${max} invitations in the last hour: try again later, or ask a Fleetlink administrator.` });
    }
    const found = await this.repo.findByEmail(email.toLowerCase());
    if (found && found.passwordHash !== null) throw conflict(`${found.email} has an account already: they see the organization when they sign in.`);
    const row = found ?? (await this.insertAccount(actor, { email: email.toLowerCase(), name: email.split('@')[0]!.slice(0, accountLimits.name), role: 'USER' }));
    return this.sendInvitation(actor, row, handOver);
  }

  /** A new invitation link for someone who has not chosen a password yet; the one before stops opening. */
  async invite(actor: Principal, id: string): Promise<AccountInvitation> {
    const row = await this.found(id);
    if (row.passwordHash !== null) throw conflict(`${row.email} has chosen a password already: there is nothing to invite them to.`);
    return this.sendInvitation(actor, row, true);
  }

  /** `handOver`: the link is answered when it was not mailed (to a realm ADMIN only). */
  private async sendInvitation(actor: Principal, row: AccountRow, handOver: boolean): Promise<AccountInvitation> {
    const { token, hash } = newLinkToken();
    const expiresAt = new Date(this.now().getTime() + accountLimits.invitationDays * DAY_MS);
    const link = `${this.o.publicUrl}${PASSWORD_PAGE_PATH}?token=${token}`;
    let mailError: string | null = null;
    await this.audit.track(
      actor,
      { kind: AuditKind.AccountInvite, details: { accountId: row.id, email: row.email } },
      async () => {
        await this.repo.newLink(row.id, 'invitation', hash, expiresAt);
        mailError = await this.mail(row.email, invitationMail({ inviter: actor.name ?? actor.username ?? 'An administrator', link, consoleUrl: this.o.publicUrl, expiresAt }));
      },
      () => ({ details: { mailed: mailError === null } }),
    );
    const mailed = mailError === null;
    return { account: accountOf(row), mailed, mailError, link: mailed || !handOver ? null : link, expiresAt: expiresAt.toISOString() };
  }

  /** Null when the mail server took it; otherwise why it was not sent. */
  private async mail(to: string, message: { subject: string; text: string }): Promise<string | null> {
    return this.o.mail ? this.o.mail.trySend({ to, ...message }) : NO_MAIL_SERVER;
  }

  async update(actor: Principal, id: string, change: AccountUpdate): Promise<Account> {
    const row = await this.found(id);
    const set: Parameters<AccountsRepository['update']>[1] = {};
    if (change.name !== undefined && change.name !== row.name) set.name = change.name;
    if (change.role !== undefined && change.role !== roleChoiceOf(row.realmRoles)) set.realmRoles = realmRolesOf(change.role);
    if (change.disabled !== undefined && change.disabled !== !!row.disabledAt) set.disabledAt = change.disabled ? this.now() : null;
    if (!Object.keys(set).length) return accountOf(row);
    const losesAdmin = (set.realmRoles && !set.realmRoles.includes('ADMIN')) || !!set.disabledAt;
    if (losesAdmin) await this.keepAnAdmin(actor, row, set.disabledAt ? 'disable' : 'demote');
    const details = {
      accountId: row.id,
      email: row.email,
      ...(set.name !== undefined ? { name: set.name } : {}),
      ...(set.realmRoles ? { role: change.role } : {}),
      ...(set.disabledAt !== undefined ? { disabled: !!set.disabledAt } : {}),
    };
    const updated = await this.audit.track(actor, { kind: AuditKind.AccountUpdate, details }, async () => {
      const saved = await this.repo.update(id, set);
      if (!saved) throw notFound('The account does not exist.');
      return saved;
    });
    if (set.disabledAt !== undefined) await this.standing.changed(id);
    return accountOf(updated);
  }

  async remove(actor: Principal, id: string): Promise<void> {
    const row = await this.found(id);
    await this.keepAnAdmin(actor, row, 'delete');
    await this.audit.track(actor, { kind: AuditKind.AccountDelete, details: { accountId: row.id, email: row.email } }, async () => {
      if (!(await this.repo.remove(id))) throw notFound('The account does not exist.');
    });
    await this.standing.changed(id);
  }

  /** Nobody locks themselves out, and the realm keeps an ADMIN who can sign in. */
  private async keepAnAdmin(actor: Principal, row: AccountRow, what: 'disable' | 'demote' | 'delete') {
    if (row.id === actor.subject) throw badRequest(`You cannot ${what} your own account: ask another administrator.`);
    if (!row.realmRoles.includes('ADMIN') || row.disabledAt) return;
    const admins = await this.repo.activeAdmins();
    if (admins.length <= 1) throw conflict(`${row.email} is the last administrator who can sign in: make someone else an administrator first.`);
  }

  private async found(id: string): Promise<AccountRow> {
    const row = await this.repo.find(id);
    if (!row) throw notFound('The account does not exist.');
    return row;
  }

  /**
   * "Forgot password?": mails a reset link (1 hour) when an account that may sign in has the email.
   * Whoever asks learns nothing: the work goes on after the answer, which is the same either way.
   */
  requestReset(typed: string, clientAddress: string): void {
    const email = typed.trim().toLowerCase().slice(0, accountLimits.email);
    void this.reset(email, clientAddress).catch((err: unknown) => this.o.log.error({ err }, 'a password reset could not be handled'));
  }

  private async reset(email: string, clientAddress: string): Promise<void> {
    const actor: Actor = { username: email, subject: null, clientAddress };
    const record = (error: string | null, details: Record<string, unknown>) => this.audit.record(actor, { kind: AuditKind.AccountResetRequest, details }, { error });
    const byAddress = await this.o.hit(`password-reset-address:${clientAddress}`, HOUR_MS);
    const byEmail = await this.o.hit(`password-reset-email:${email}`, HOUR_MS);
    if (byAddress.current > accountLimits.resetsPerAddress || byEmail.current > accountLimits.resetsPerEmail) {
      return record('Too many password resets were asked: none was sent.', { mailed: false });
    }
    const row = await this.repo.findByEmail(email);
    if (!row || row.disabledAt) return record(null, { mailed: false });
    const { token, hash } = newLinkToken();
    const expiresAt = new Date(this.now().getTime() + accountLimits.resetMinutes * MINUTE_MS);
    await this.repo.newLink(row.id, 'reset', hash, expiresAt);
    const mailError = await this.mail(row.email, resetMail({ link: `${this.o.publicUrl}${PASSWORD_PAGE_PATH}?token=${token}`, consoleUrl: this.o.publicUrl, expiresAt }));
    await record(mailError, { accountId: row.id, mailed: mailError === null });
  }

  /** Whether the console can mail a reset link at all (the page says whom to ask otherwise). */
  get mailsResets(): boolean {
    return !!this.o.mail;
  }

  /** The account a password link opens, or why it does not. */
  async openLink(token: string): Promise<PasswordLinkResult> {
    const opened = await this.repo.openLink(sha256(token), this.now());
    if (!opened || opened.account.disabledAt) return { error: LINK_GONE, gone: true };
    return { account: opened.account };
  }

  /** Sets the password a person chose through their link, which then stops opening. */
  async choosePassword(token: string, password: string, repeated: string, clientAddress: string): Promise<PasswordLinkResult> {
    const opened = await this.openLink(token);
    if ('error' in opened) return opened;
    const refusal = passwordRefusal(password, opened.account.email) ?? (password !== repeated ? 'The two passwords differ: type the same one twice.' : undefined);
    if (refusal) return { error: refusal, email: opened.account.email };
    const actor: Actor = { username: opened.account.email, subject: opened.account.id, clientAddress };
    const gone = conflict(LINK_GONE);
    try {
      const account = await this.audit.track(actor, { kind: AuditKind.AccountPasswordSet, details: { accountId: opened.account.id } }, async () => {
        // Another tab or console may have used the link since it was opened above.
        const set = await this.repo.useLink(sha256(token), await hashPassword(password), this.now());
        if (!set) throw gone;
        return set;
      });
      return { account };
    } catch (err) {
      if (err === gone) return { error: LINK_GONE, gone: true };
      throw err;
    }
  }
}
