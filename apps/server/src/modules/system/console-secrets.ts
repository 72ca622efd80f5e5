import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { consoleSecrets } from '../../db/schema/index.js';

/**
 * A key the console makes for itself on first start (`make`), kept in the database so that every
 * console instance of one database uses the same one and a restart keeps what it signed valid.
 */
export async function loadOrCreateConsoleSecret<T>(db: Db, name: string, make: () => T): Promise<T> {
  const [existing] = await db.select().from(consoleSecrets).where(eq(consoleSecrets.name, name));
  if (existing) return existing.value as T;
  // Two instances starting at once: the first insert wins and both read it back.
  await db.insert(consoleSecrets).values({ name, value: make() }).onConflictDoNothing();
  const [row] = await db.select().from(consoleSecrets).where(eq(consoleSecrets.name, name));
  return row.value as T;
}
