import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { idpAccounts } from '../db/schema/index.js';
import { secondFactorRequired } from '../modules/accounts/two-factor.repository.js';

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number) => Promise<Buffer>;

export interface IdpAccount {
  id: string;
  email: string;
  name: string;
  realmRoles: string[];
}

/**
 * The built-in provider's seeded accounts (issue #2): email = username. `password` is the
 * well-known one a console on loopback keeps for trying it out; `passwordVariable` sets another.
 */
export const SEEDED_ACCOUNTS = [
  { id: 'a0000000-0000-4000-8000-000000000001', email: 'admin@fleetlink.local', password: 'admin', passwordVariable: 'IDP_ADMIN_PASSWORD', name: 'Ada Admin', realmRoles: ['USER', 'ADMIN'] },
  { id: 'a0000000-0000-4000-8000-000000000002', email: 'user@fleetlink.local', password: 'user', passwordVariable: 'IDP_USER_PASSWORD', name: 'Ulla User', realmRoles: ['USER'] },
  { id: 'a0000000-0000-4000-8000-000000000003', email: 'guest@fleetlink.local', password: 'guest', passwordVariable: 'IDP_GUEST_PASSWORD', name: 'Gus Guest', realmRoles: [] },
] as const;

export type SeededPasswordVariable = (typeof SEEDED_ACCOUNTS)[number]['passwordVariable'];

export interface SeedOptions {
  /** The console listens beyond loopback, where the well-known passwords would let anyone in. */
  exposed: boolean;
  /** Passwords the operator set, by variable (the parsed environment will do); they win over any other. */
  given: Partial<Record<SeededPasswordVariable, string | undefined>>;
}

/** Where each seeded account's password comes from after a start; `password` only when it is new or well known. */
export type SeededPassword =
  | { email: string; source: 'well-known'; password: string }
  | { email: string; source: 'generated'; password: string }
  | { email: string; source: 'environment'; variable: SeededPasswordVariable }
  /** Generated at an earlier start (or set by a variable since removed): not shown again. */
  | { email: string; source: 'earlier' };

/** 24 characters from 144 random bits. */
const generatePassword = () => randomBytes(18).toString('base64url');

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  // An invited account has no password until its person chooses one: nothing opens it.
  const [, saltB64, hashB64] = (stored ?? '').split('$');
  if (!saltB64 || !hashB64) return false;
  const expected = Buffer.from(hashB64, 'base64');
  const actual = await scrypt(password, Buffer.from(saltB64, 'base64'), expected.length);
  return timingSafeEqual(expected, actual);
}

/** Tries at settling one seeded account; each lost race is to a console that has stored it since. */
const SETTLE_ATTEMPTS = 3;

export class AccountStore {
  constructor(private readonly db: Db) {}

  /**
   * Inserts the seeded accounts that are missing and settles their passwords: the operator's from
   * the environment; on an exposed console a generated one in place of a well-known one (also of an
   * account a loopback console made earlier); otherwise the well-known one. Nothing else is changed.
   */
  async seed(opts: SeedOptions = { exposed: false, given: {} }): Promise<SeededPassword[]> {
    const settled: SeededPassword[] = [];
    for (const a of SEEDED_ACCOUNTS) {
      // A second console starting on the same database at the same moment may insert the account
      // between our read and our insert: then it is decided again, as the account it now is. A
      // conflict that reading again does not explain (another row holding its email) stops the
      // start with its reason rather than trying for ever.
      let result: SeededPassword | undefined;
      for (let attempt = 1; !result; attempt++) {
        if (attempt > SETTLE_ATTEMPTS) throw new Error(`The built-in account ${a.email} could not be stored: another account holds its id or email.`);
        result = await this.settle(a, opts);
      }
      settled.push(result);
    }
    return settled;
  }

  /** One seeded account's password decided and stored; undefined when another console inserted it meanwhile. */
  private async settle(a: (typeof SEEDED_ACCOUNTS)[number], opts: SeedOptions): Promise<SeededPassword | undefined> {
    const [row] = await this.db.select().from(idpAccounts).where(eq(idpAccounts.id, a.id));
    const given = opts.given[a.passwordVariable];
    // One scrypt per account and start, and only the one the decision needs.
    const holds = async (password: string) => (row ? verifyPassword(password, row.passwordHash) : false);
    let password: string | undefined;
    let result: SeededPassword;
    if (given !== undefined) {
      if (!(await holds(given))) password = given;
      result = { email: a.email, source: 'environment', variable: a.passwordVariable };
    } else if (row && !(await holds(a.password))) {
      result = { email: a.email, source: 'earlier' };
    } else if (opts.exposed) {
      password = generatePassword();
      result = { email: a.email, source: 'generated', password };
    } else {
      if (!row) password = a.password;
      result = { email: a.email, source: 'well-known', password: a.password };
    }
    if (password === undefined) return result;
    const passwordHash = await hashPassword(password);
    if (row) {
      // Only over the hash this decision read: another console may have settled it meanwhile.
      const updated = await this.db
        .update(idpAccounts)
        .set({ passwordHash })
        .where(and(eq(idpAccounts.id, a.id), row.passwordHash === null ? isNull(idpAccounts.passwordHash) : eq(idpAccounts.passwordHash, row.passwordHash)))
        .returning({ id: idpAccounts.id });
      return updated.length ? result : undefined;
    }
    // DO NOTHING without a target covers the email's unique index too, which a concurrent insert
    // of the same account would otherwise break with a unique violation.
    const inserted = await this.db
      .insert(idpAccounts)
      .values({ id: a.id, email: a.email, name: a.name, passwordHash, realmRoles: [...a.realmRoles] })
      .onConflictDoNothing()
      .returning({ id: idpAccounts.id });
    return inserted.length ? result : undefined;
  }

  /**
   * An account that may sign in: a disabled one is not found (its refresh tokens and the provider's
   * session stop with it), nor an ADMIN without a second factor while the realm requires one (they
   * sign in again, and set it up then).
   */
  async findById(id: string): Promise<IdpAccount | undefined> {
    const a = idpAccounts;
    const [row] = await this.db
      .select()
      .from(a)
      .where(and(eq(a.id, id), isNull(a.disabledAt), sql`not (${secondFactorRequired} and ${a.totpSecret} is null)`));
    return row && { id: row.id, email: row.email, name: row.name, realmRoles: row.realmRoles };
  }

  /**
   * Returns the account when the email and password match (the same answer for either mistake),
   * saying whether an ADMIN disabled it: its person hears so only once they proved the password.
   */
  async authenticate(email: string, password: string): Promise<(IdpAccount & { disabled: boolean }) | undefined> {
    const [row] = await this.db
      .select()
      .from(idpAccounts)
      .where(eq(idpAccounts.email, email.trim().toLowerCase()));
    if (!row || !(await verifyPassword(password, row.passwordHash))) return undefined;
    return { id: row.id, email: row.email, name: row.name, realmRoles: row.realmRoles, disabled: !!row.disabledAt };
  }

  async signedIn(id: string, at = new Date()): Promise<void> {
    await this.db.update(idpAccounts).set({ lastSignInAt: at }).where(eq(idpAccounts.id, id));
  }
}
