import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { idpAccounts } from '../db/schema/index.js';

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number) => Promise<Buffer>;

export interface IdpAccount {
  id: string;
  email: string;
  name: string;
  realmRoles: string[];
}

/** The built-in provider's seeded accounts (issue #2): email = username. */
export const SEEDED_ACCOUNTS = [
  { id: 'a0000000-0000-4000-8000-000000000001', email: 'admin@fleetlink.local', password: 'admin', name: 'Ada Admin', realmRoles: ['USER', 'ADMIN'] },
  { id: 'a0000000-0000-4000-8000-000000000002', email: 'user@fleetlink.local', password: 'user', name: 'Ulla User', realmRoles: ['USER'] },
  { id: 'a0000000-0000-4000-8000-000000000003', email: 'guest@fleetlink.local', password: 'guest', name: 'Gus Guest', realmRoles: [] },
] as const;

async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`;
}

async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [, saltB64, hashB64] = stored.split('$');
  if (!saltB64 || !hashB64) return false;
  const expected = Buffer.from(hashB64, 'base64');
  const actual = await scrypt(password, Buffer.from(saltB64, 'base64'), expected.length);
  return timingSafeEqual(expected, actual);
}

export class AccountStore {
  constructor(private readonly db: Db) {}

  /** Inserts the seeded accounts that are missing; never overwrites one that exists. */
  async seed(): Promise<void> {
    for (const a of SEEDED_ACCOUNTS) {
      const passwordHash = await hashPassword(a.password);
      await this.db
        .insert(idpAccounts)
        .values({ id: a.id, email: a.email, name: a.name, passwordHash, realmRoles: [...a.realmRoles] })
        .onConflictDoNothing();
    }
  }

  async findById(id: string): Promise<IdpAccount | undefined> {
    const [row] = await this.db.select().from(idpAccounts).where(eq(idpAccounts.id, id));
    return row && { id: row.id, email: row.email, name: row.name, realmRoles: row.realmRoles };
  }

  /** Returns the account when the email and password match; the same answer for either mistake. */
  async authenticate(email: string, password: string): Promise<IdpAccount | undefined> {
    const [row] = await this.db
      .select()
      .from(idpAccounts)
      .where(eq(idpAccounts.email, email.trim().toLowerCase()));
    if (!row || !(await verifyPassword(password, row.passwordHash))) return undefined;
    return { id: row.id, email: row.email, name: row.name, realmRoles: row.realmRoles };
  }
}
