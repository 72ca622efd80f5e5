import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.js';
import { deviceLifetimes } from '../../db/schema/index.js';

const migrations = path.resolve(import.meta.dirname, '../../db/migrations');
const dir = mkdtempSync(path.join(tmpdir(), 'fleetlink-upgrade-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The migrations as they were before invoices (0000–0014). */
function migrationsBeforeInvoices(): string {
  const folder = path.join(dir, 'migrations-0014');
  cpSync(migrations, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8'));
  journal.entries = journal.entries.filter((e: { idx: number }) => e.idx <= 14);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

describe('upgrading a database made before invoices', () => {
  it('bills its existing devices from their creation', async () => {
    const dataDir = path.join(dir, 'data');
    mkdirSync(path.join(dataDir, 'pg'), { recursive: true });
    const client = await PGlite.create({ dataDir: path.join(dataDir, 'pg'), extensions: { pg_trgm } });
    await migrate(drizzle({ client }), { migrationsFolder: migrationsBeforeInvoices() });
    const {
      rows: [org],
    } = await client.query<{ id: string }>(`insert into organizations (type, name) values ('COMPANY', 'Old') returning id`);
    await client.query(`insert into devices (organization_id, name, installation_key, created_at) values ($1, 'old-device', 'k', '2026-01-15T10:00:00Z')`, [org.id]);
    await client.close();

    const database = await openDatabase({ dataDir });
    try {
      const rows = await database.db.select().from(deviceLifetimes);
      expect(rows).toEqual([expect.objectContaining({ organizationId: org.id, deviceName: 'old-device', startedAt: new Date('2026-01-15T10:00:00Z'), endedAt: null })]);
    } finally {
      await database.close();
    }
  });
});
