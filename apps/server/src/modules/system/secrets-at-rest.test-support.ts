import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { brokerSettings, consoleSecrets, idpPayloads, servers } from '../../db/schema/index.js';
import { SecretBox } from '../../lib/secret-box.js';
import { SECRET_SETTINGS, sealedAs } from './secrets-at-rest.js';

/**
 * Rewrites a database as a console before sealing left it: passwords, console secrets and the
 * messaging part's secrets in plain text, the provider's rows under their own ids with plain
 * payloads, no key check. What an upgrade starts from.
 */
export async function unsealAsAnOlderConsoleLeftIt(db: Db, box: SecretBox): Promise<void> {
  const open = (value: unknown, context: string) => (SecretBox.isSealed(value) ? box.open(value, context) : (value as string));
  for (const row of await db.select().from(servers)) {
    await db
      .update(servers)
      .set({ password: row.password && open(row.password, sealedAs.serverPassword), trustStorePassword: row.trustStorePassword && open(row.trustStorePassword, sealedAs.trustStorePassword) })
      .where(eq(servers.id, row.id));
  }
  await db.delete(consoleSecrets).where(eq(consoleSecrets.name, 'secret-key-check'));
  for (const row of await db.select().from(consoleSecrets)) {
    await db.update(consoleSecrets).set({ value: JSON.parse(open(row.value, sealedAs.consoleSecret(row.name))) }).where(eq(consoleSecrets.name, row.name));
  }
  for (const row of await db.select().from(brokerSettings).where(inArray(brokerSettings.name, SECRET_SETTINGS))) {
    await db.update(brokerSettings).set({ value: JSON.parse(open(row.value, sealedAs.setting(row.name))) }).where(eq(brokerSettings.name, row.name));
  }
  for (const row of await db.select().from(idpPayloads)) {
    const payload = JSON.parse(open(row.payload, sealedAs.idpPayload(row.model))) as { jti: string; uid?: string };
    await db
      .update(idpPayloads)
      .set({ id: payload.jti, payload, uid: payload.uid ?? null })
      .where(sql`${idpPayloads.model} = ${row.model} and ${idpPayloads.id} = ${row.id}`);
  }
}
