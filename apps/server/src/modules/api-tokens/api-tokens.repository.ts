import type { ApiTokenScope } from '@fleetlink/contract';
import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { apiTokenAddresses, apiTokens, organizations, users } from '../../db/schema/index.js';

export type ApiTokenRow = typeof apiTokens.$inferSelect;

/** A token as lists show it, with its owner's login and its organizations' names. */
export interface ApiTokenListRow extends ApiTokenRow {
  ownerUsername: string | null;
  organizationNames: { id: string; name: string | null }[] | null;
}

/** A token found by its secret, with what its owner's last sign-in said of them. */
export interface ApiTokenOwnerRow {
  token: ApiTokenRow;
  owner: { username: string; name: string | null; email: string | null; roles: string[]; lastSeenAt: Date } | null;
}

/** Not revoked and not expired at `now`. */
const activeAt = (now: Date) => and(isNull(apiTokens.revokedAt), or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now)));

/** The organizations' names as they are now; a deleted organization keeps its id and no name. */
const organizationNames = sql<{ id: string; name: string | null }[] | null>`case when ${apiTokens.organizationIds} is null then null else (
  select coalesce(json_agg(json_build_object('id', o.id, 'name', ${organizations.name}) order by o.ord), '[]'::json)
  from unnest(${apiTokens.organizationIds}) with ordinality as o(id, ord)
  left join ${organizations} on ${organizations.id} = o.id
) end`;

export class ApiTokensRepository {
  constructor(private readonly db: Db) {}

  async insert(values: {
    ownerSubject: string;
    name: string;
    secretHash: string;
    scope: ApiTokenScope;
    organizationIds: string[] | null;
    expiresAt: Date | null;
  }): Promise<string> {
    const [row] = await this.db.insert(apiTokens).values(values).returning({ id: apiTokens.id });
    return row!.id;
  }

  /** Tokens a person holds now (neither revoked nor expired), to count against the limit and find a name twice. */
  async activeOf(ownerSubject: string, now: Date): Promise<{ id: string; name: string }[]> {
    return this.db
      .select({ id: apiTokens.id, name: apiTokens.name })
      .from(apiTokens)
      .where(and(eq(apiTokens.ownerSubject, ownerSubject), activeAt(now)));
  }

  /** Tokens that are not revoked (expired ones too: the list says they expired), newest first; one owner's, one, or everyone's. */
  async list(opts: { ownerSubject?: string; id?: string; limit: number }): Promise<ApiTokenListRow[]> {
    const rows = await this.db
      .select({ token: apiTokens, ownerUsername: users.username, organizationNames })
      .from(apiTokens)
      .leftJoin(users, eq(users.subject, apiTokens.ownerSubject))
      .where(
        and(
          isNull(apiTokens.revokedAt),
          opts.ownerSubject === undefined ? undefined : eq(apiTokens.ownerSubject, opts.ownerSubject),
          opts.id === undefined ? undefined : eq(apiTokens.id, opts.id),
        ),
      )
      .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id))
      .limit(opts.limit);
    return rows.map((r) => ({ ...r.token, ownerUsername: r.ownerUsername, organizationNames: r.organizationNames }));
  }

  /** One token that is not revoked, as lists show it. */
  async find(id: string): Promise<ApiTokenListRow | undefined> {
    const [row] = await this.list({ id, limit: 1 });
    return row;
  }

  /** Marks it revoked; false when it was revoked already (by another console or person at the same time). */
  async revoke(id: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(apiTokens)
      .set({ revokedAt: at })
      .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id });
    return rows.length > 0;
  }

  /** The token with this secret's hash and its owner, in one query: every API call with a token costs this. */
  async findBySecretHash(secretHash: string): Promise<ApiTokenOwnerRow | undefined> {
    const [row] = await this.db
      .select({
        token: apiTokens,
        username: users.username,
        name: users.name,
        email: users.email,
        roles: users.roles,
        lastSeenAt: users.lastSeenAt,
      })
      .from(apiTokens)
      .leftJoin(users, eq(users.subject, apiTokens.ownerSubject))
      .where(eq(apiTokens.secretHash, secretHash));
    if (!row) return undefined;
    const { token, username, name, email, roles, lastSeenAt } = row;
    return { token, owner: username === null ? null : { username, name, email, roles: roles ?? [], lastSeenAt: lastSeenAt! } };
  }

  /**
   * Records a use: last used time and address, written only when the last write is `everyMs` old, so
   * a busy script costs no write per call and two consoles write once between them.
   */
  async recordUse(id: string, address: string, at: Date, everyMs: number): Promise<void> {
    await this.db
      .update(apiTokens)
      .set({ lastUsedAt: at, lastUsedAddress: address })
      .where(
        and(
          eq(apiTokens.id, id),
          or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, new Date(at.getTime() - everyMs))),
        ),
      );
  }

  /** True the first time this token is seen from this address (whichever console saw it first). */
  async firstUseFrom(id: string, address: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .insert(apiTokenAddresses)
      .values({ tokenId: id, address, firstUsedAt: at })
      .onConflictDoNothing()
      .returning({ tokenId: apiTokenAddresses.tokenId });
    return rows.length > 0;
  }
}
