import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.js';
import { idpAccounts } from '../db/schema/index.js';
import { createTestDatabase } from '../testing/test-console.js';
import { AccountStore, SEEDED_ACCOUNTS, type SeededPassword } from './accounts.js';

/**
 * Two consoles started together on a new database both seed the built-in accounts (CI's two-console
 * browser test did, and one of them failed to start on the email's unique index). On PostgreSQL
 * (TEST_DATABASE_URL) the two stores have their own pools; PGlite serves one process, so they share it.
 */
/** The passwords the consoles printed as generated for one account. */
const generatedOf = (settled: SeededPassword[]) => settled.filter((p): p is Extract<SeededPassword, { source: 'generated' }> => p.source === 'generated');

describe('seeding the built-in accounts from two consoles at once', () => {
  let dir: string;
  let fresh: { url: string; drop(): Promise<void> } | undefined;
  const databases: Database[] = [];
  let stores: [AccountStore, AccountStore];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'fleetlink-accounts-'));
    fresh = await createTestDatabase('fleetlink_accounts');
    databases.push(await openDatabase({ databaseUrl: fresh?.url, dataDir: dir }));
    if (fresh) databases.push(await openDatabase({ databaseUrl: fresh.url, dataDir: dir }));
    stores = [new AccountStore(databases[0]!.db), new AccountStore(databases.at(-1)!.db)];
  });
  afterAll(async () => {
    for (const d of databases) await d.close();
    await fresh?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts both, and every password a console prints lets its person in', async () => {
    for (let round = 0; round < 5; round++) {
      await databases[0]!.db.delete(idpAccounts);
      const [a, b] = await Promise.all(stores.map((s) => s.seed({ exposed: true, given: {} })));
      for (const [i, account] of SEEDED_ACCOUNTS.entries()) {
        const printed = generatedOf([a![i]!, b![i]!]);
        // One console generated it and shows it; the other finds it made "earlier" and keeps it.
        expect(printed).toHaveLength(1);
        expect([a![i]!.source, b![i]!.source].sort()).toEqual(['earlier', 'generated']);
        expect(await stores[1].authenticate(account.email, printed[0]!.password)).toMatchObject({ id: account.id });
      }
    }
  });

  it('replaces the well-known passwords a loopback console left once, when two exposed consoles start together', async () => {
    await databases[0]!.db.delete(idpAccounts);
    await stores[0].seed();
    const [a, b] = await Promise.all(stores.map((s) => s.seed({ exposed: true, given: {} })));
    for (const [i, account] of SEEDED_ACCOUNTS.entries()) {
      const printed = generatedOf([a![i]!, b![i]!]);
      expect(printed).toHaveLength(1);
      expect(await stores[1].authenticate(account.email, printed[0]!.password)).toMatchObject({ id: account.id });
      expect(await stores[1].authenticate(account.email, account.password)).toBeUndefined();
    }
  });

  it("stops with the reason, not for ever, when another row holds a seeded account's email", async () => {
    await databases[0]!.db.delete(idpAccounts);
    await databases[0]!.db.insert(idpAccounts).values({ id: 'someone-else', email: SEEDED_ACCOUNTS[0].email, name: 'Someone', passwordHash: 'x', realmRoles: [] });
    await expect(stores[0].seed()).rejects.toThrow(`The built-in account ${SEEDED_ACCOUNTS[0].email} could not be stored: another account holds its id or email.`);
  });

  it('keeps the well-known passwords on a loopback console, whichever console wrote them', async () => {
    await databases[0]!.db.delete(idpAccounts);
    const both = await Promise.all(stores.map((s) => s.seed()));
    for (const settled of both) expect(settled.map((p) => p.source)).toEqual(['well-known', 'well-known', 'well-known']);
    for (const account of SEEDED_ACCOUNTS) expect(await stores[0].authenticate(account.email, account.password)).toMatchObject({ id: account.id });
  });
});
