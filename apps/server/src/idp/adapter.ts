import { and, eq, lt } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../db/client.js';
import { idpPayloads } from '../db/schema/index.js';
import type { SecretBox } from '../lib/secret-box.js';
import { idpRowId, sealedAs } from '../modules/system/secrets-at-rest.js';

/**
 * oidc-provider storage in the console's database, so sessions and refresh tokens survive restarts.
 * A row is found by a hash of its id (the refresh token, the session cookie's value, the code) and
 * its payload is sealed: a copy of the database holds no token anyone can use.
 */
export function createAdapterFactory(db: Db, box: SecretBox) {
  return class DbAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const row = {
        model: this.model,
        id: idpRowId(id),
        payload: box.seal(JSON.stringify(payload), sealedAs.idpPayload(this.model)),
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        // Only a session is looked up by its uid (the `sid` of its ID tokens, no secret); an
        // interaction's uid is its id.
        uid: this.model === 'Session' ? (payload.uid ?? null) : null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      await db
        .insert(idpPayloads)
        .values(row)
        .onConflictDoUpdate({ target: [idpPayloads.model, idpPayloads.id], set: row });
    }

    private async findWhere(where: ReturnType<typeof eq>): Promise<AdapterPayload | undefined> {
      const [row] = await db.select().from(idpPayloads).where(and(eq(idpPayloads.model, this.model), where));
      if (!row) return undefined;
      if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) return undefined;
      const payload = JSON.parse(box.open(row.payload as string, sealedAs.idpPayload(this.model))) as AdapterPayload;
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    }

    find(id: string) {
      return this.findWhere(eq(idpPayloads.id, idpRowId(id)));
    }

    findByUid(uid: string) {
      return this.findWhere(eq(idpPayloads.uid, uid));
    }

    findByUserCode(userCode: string) {
      return this.findWhere(eq(idpPayloads.userCode, userCode));
    }

    async consume(id: string): Promise<void> {
      await db
        .update(idpPayloads)
        .set({ consumedAt: new Date() })
        .where(and(eq(idpPayloads.model, this.model), eq(idpPayloads.id, idpRowId(id))));
    }

    async destroy(id: string): Promise<void> {
      await db.delete(idpPayloads).where(and(eq(idpPayloads.model, this.model), eq(idpPayloads.id, idpRowId(id))));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.delete(idpPayloads).where(eq(idpPayloads.grantId, grantId));
    }
  };
}

/** Expired rows are never read again; removing them keeps the table small. */
export async function purgeExpired(db: Db): Promise<void> {
  await db.delete(idpPayloads).where(lt(idpPayloads.expiresAt, new Date()));
}
