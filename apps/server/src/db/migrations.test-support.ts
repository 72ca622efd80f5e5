import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

const migrations = path.resolve(import.meta.dirname, 'migrations');

/**
 * A PGlite database in `dataDir` (where openDatabase looks) as an older console left it: migrated
 * up to and including migration `lastIdx`. Upgrade tests fill it, close it, then open it with this console.
 */
export async function databaseAtMigration(dataDir: string, lastIdx: number): Promise<PGlite> {
  const folder = path.join(dataDir, `migrations-${lastIdx}`);
  cpSync(migrations, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8'));
  journal.entries = journal.entries.filter((e: { idx: number }) => e.idx <= lastIdx);
  writeFileSync(journalFile, JSON.stringify(journal));
  mkdirSync(path.join(dataDir, 'pg'), { recursive: true });
  const client = await PGlite.create({ dataDir: path.join(dataDir, 'pg'), extensions: { pg_trgm } });
  await migrate(drizzle({ client }), { migrationsFolder: folder });
  return client;
}
