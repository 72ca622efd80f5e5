import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { brokerSettings, consoleSecrets } from '../../db/schema/index.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { sealedAs } from './secrets-at-rest.js';

/**
 * A key the console makes for itself on first start (`make`), kept in the database (sealed) so that
 * every console instance of one database uses the same one and a restart keeps what it signed valid.
 */
export function loadOrCreateConsoleSecret<T>(db: Db, box: SecretBox, name: string, make: () => T): Promise<T> {
  return loadOrCreateSealed(db, box, consoleSecrets, sealedAs.consoleSecret(name), name, make);
}

/** The same for a secret of the messaging part (device password key, built-in broker's and proxy's accounts). */
export function loadOrCreateSetting<T>(db: Db, box: SecretBox, name: string, make: () => T): Promise<T> {
  return loadOrCreateSealed(db, box, brokerSettings, sealedAs.setting(name), name, make);
}

async function loadOrCreateSealed<T>(db: Db, box: SecretBox, table: typeof consoleSecrets | typeof brokerSettings, context: string, name: string, make: () => T): Promise<T> {
  const read = async () => {
    const [row] = await db.select({ value: table.value }).from(table).where(eq(table.name, name));
    return row && (JSON.parse(box.open(row.value as string, context)) as T);
  };
  const existing = await read();
  if (existing !== undefined) return existing;
  // Two instances starting at once: the first insert wins and both read it back.
  await db.insert(table).values({ name, value: box.seal(JSON.stringify(make()), context) }).onConflictDoNothing();
  return (await read())!;
}
