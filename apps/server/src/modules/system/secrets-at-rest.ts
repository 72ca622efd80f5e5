import { createHash } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbExecutor } from '../../db/client.js';
import { brokerSettings, consoleSecrets, devices, idpPayloads, servers } from '../../db/schema/index.js';
import { ConfigError } from '../../env.js';
import { SEALED_PREFIX, SecretBox } from '../../lib/secret-box.js';

/** Which stored value a sealed one is: the context its seal is bound to. */
export const sealedAs = {
  serverPassword: 'servers.password',
  trustStorePassword: 'servers.trust_store_password',
  installationKey: 'devices.installation_key',
  webhookSecret: 'alert_rules.webhook_secret',
  totpSecret: 'idp_accounts.totp_secret',
  totpPendingSecret: 'idp_accounts.totp_pending_secret',
  consoleSecret: (name: string) => `console_secrets.${name}`,
  setting: (name: string) => `broker_settings.${name}`,
  idpPayload: (model: string) => `idp_payloads.${model}`,
};

/** The provider's rows are found by a hash of their id: a refresh token, a session, a code. */
export const idpRowId = (id: string) => createHash('sha256').update(id, 'utf8').digest('base64url');

/** A value sealed with the key, whose opening proves a console holds the key the database was sealed with. */
const KEY_CHECK = 'secret-key-check';
const KEY_CHECK_TEXT = 'fleetlink';

/** Messaging settings that held secrets in plain text before they were sealed (the rest hold ids). */
export const SECRET_SETTINGS = ['credentialSecret', 'embeddedProxy', 'embeddedConsoleAccount'];

/** Any constant: one console at a time checks and seals. */
const SEALING_LOCK = 7_362_144;

/**
 * At start: makes sure the key opens this database's secrets. The first start with a key (no key
 * check yet) also seals what an older console left in plain text (servers' passwords, console
 * secrets and settings, the provider's rows) in place, so an upgrade needs no step of its own and a
 * database copy made after it opens nothing; every later write is sealed as it is made, so later
 * starts do not read those tables again.
 */
export async function openSecretsAtRest(db: Db, key: { key: Buffer; where: string }): Promise<SecretBox> {
  const box = new SecretBox(key.key);
  const sealed = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEALING_LOCK})`);
    const [check] = await tx.select().from(consoleSecrets).where(eq(consoleSecrets.name, KEY_CHECK));
    if (check && !opens(box, check.value)) {
      throw new ConfigError(
        `The database's secrets were sealed with another key than ${key.where}. Start with the key they were sealed with (SECRET_KEY, or the secret.key file of the DATA_DIR that made them).`,
      );
    }
    if (check) return 0;
    const count = await sealPlainSecrets(tx, box);
    await tx.insert(consoleSecrets).values({ name: KEY_CHECK, value: box.seal(KEY_CHECK_TEXT, sealedAs.consoleSecret(KEY_CHECK)) });
    return count;
  });
  // The plain values live on in the tables' dead row versions until a vacuum rewrites them (the
  // write-ahead log and earlier backups still hold them: the README says to change those passwords).
  if (sealed) await db.execute(sql`vacuum full servers, console_secrets, broker_settings, idp_payloads`).catch(() => {});
  if (await sealInstallationKeys(db, box)) await db.execute(sql`vacuum full devices`).catch(() => {});
  return box;
}

/** Set once every installation key is sealed (issue 58): later starts do not read the devices again. */
const KEYS_SEALED = 'installationKeysSealed';

/**
 * Seals the installation keys a console before issue 58 kept in plain text, once: a database copy
 * alone then enrolls no device. Answers how many it sealed.
 */
async function sealInstallationKeys(db: Db, box: SecretBox): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEALING_LOCK})`);
    const [done] = await tx.select().from(brokerSettings).where(eq(brokerSettings.name, KEYS_SEALED));
    if (done) return 0;
    const plain = await tx
      .select({ id: devices.id, key: devices.installationKey })
      .from(devices)
      .where(sql`${devices.installationKey} not like ${`${SEALED_PREFIX}%`}`);
    // A thousand rows a statement: a large fleet's upgrade is seconds, not a round trip per device.
    for (let i = 0; i < plain.length; i += 1000) {
      const sealed = JSON.stringify(plain.slice(i, i + 1000).map((r) => ({ id: r.id, k: box.seal(r.key, sealedAs.installationKey) })));
      await tx.execute(sql`update ${devices} set installation_key = v.k from jsonb_to_recordset(${sealed}::jsonb) as v(id uuid, k text) where ${devices.id} = v.id`);
    }
    await tx.insert(brokerSettings).values({ name: KEYS_SEALED, value: true });
    return plain.length;
  });
}

function opens(box: SecretBox, value: unknown): boolean {
  try {
    return SecretBox.isSealed(value) && box.open(value, sealedAs.consoleSecret(KEY_CHECK)) === KEY_CHECK_TEXT;
  } catch {
    return false;
  }
}

/** Seals every secret still in plain text; answers how many it sealed. */
async function sealPlainSecrets(tx: DbExecutor, box: SecretBox): Promise<number> {
  let count = 0;
  for (const row of await tx.select({ id: servers.id, password: servers.password, trustStorePassword: servers.trustStorePassword }).from(servers)) {
    const seal = (value: string | null, context: string) => (value === null || SecretBox.isSealed(value) ? value : box.seal(value, context));
    const password = seal(row.password, sealedAs.serverPassword);
    const trustStorePassword = seal(row.trustStorePassword, sealedAs.trustStorePassword);
    if (password !== row.password || trustStorePassword !== row.trustStorePassword) {
      await tx.update(servers).set({ password, trustStorePassword }).where(eq(servers.id, row.id));
      count++;
    }
  }
  for (const row of await tx.select().from(consoleSecrets)) {
    if (row.name === KEY_CHECK || SecretBox.isSealed(row.value)) continue;
    const value = box.seal(JSON.stringify(row.value), sealedAs.consoleSecret(row.name));
    await tx.update(consoleSecrets).set({ value }).where(eq(consoleSecrets.name, row.name));
    count++;
  }
  for (const row of await tx.select().from(brokerSettings).where(inArray(brokerSettings.name, SECRET_SETTINGS))) {
    if (SecretBox.isSealed(row.value)) continue;
    const value = box.seal(JSON.stringify(row.value), sealedAs.setting(row.name));
    await tx.update(brokerSettings).set({ value }).where(eq(brokerSettings.name, row.name));
    count++;
  }
  for (const row of await tx.select().from(idpPayloads)) {
    if (SecretBox.isSealed(row.payload)) continue;
    const payload = box.seal(JSON.stringify(row.payload), sealedAs.idpPayload(row.model));
    await tx
      .update(idpPayloads)
      .set({ id: idpRowId(row.id), payload, uid: row.model === 'Session' ? row.uid : null })
      .where(sql`${idpPayloads.model} = ${row.model} and ${idpPayloads.id} = ${row.id}`);
    count++;
  }
  return count;
}
