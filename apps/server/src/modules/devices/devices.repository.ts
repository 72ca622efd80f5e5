import type { DeviceBranch, DeviceTotals } from '@fleetlink/contract';
import { and, asc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { devices, organizationDomains, organizationMembers, organizations } from '../../db/schema/index.js';
import { idPrefixRange, searchDocument, toPrefixQuery } from './device-search.js';

export type DeviceRow = typeof devices.$inferSelect;

export interface DeviceWithOrganization {
  device: Omit<DeviceRow, 'search'>;
  organization: { id: string; type: 'PERSONAL' | 'COMPANY'; name: string; domains: string[] };
}

export interface DeviceWrite {
  organizationId: string;
  name: string;
  description: string | null;
  branch: DeviceBranch;
  tags: string[];
}

export interface DeviceSearch {
  username: string;
  search?: string;
  status?: 'online' | 'offline';
  limit: number;
  offset: number;
}

// The search document is an index, not part of any answer.
const { search: _search, ...deviceColumns } = getTableColumns(devices);

/** The organization part of a device answer, domains included (custom domains that are active). */
const organizationColumns = {
  id: organizations.id,
  type: organizations.type,
  name: organizations.name,
  domains: sql<string[]>`coalesce((select array_agg(${organizationDomains.domain} order by ${organizationDomains.domain})
    from ${organizationDomains} where ${organizationDomains.organizationId} = ${organizations.id}
    and ${organizationDomains.status} = 'ACTIVE'), '{}'::text[])`,
};

/** The SQL of devices: writes keep the full-text document current; reads are scoped by membership. */
export class DevicesRepository {
  constructor(private readonly db: Db) {}

  /** Organizations of the user, as a sub-select: every list query is limited to them. */
  private memberOrganizations(username: string) {
    return this.db
      .select({ id: organizationMembers.organizationId })
      .from(organizationMembers)
      .where(eq(organizationMembers.email, username));
  }

  async insert(values: DeviceWrite & { installationKey: string }): Promise<string> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.insert(devices).values(values).returning({ id: devices.id });
      await tx.update(devices).set({ search: searchDocument }).where(eq(devices.id, row!.id));
      return row!.id;
    });
  }

  async update(id: string, values: DeviceWrite): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.update(devices).set({ ...values, updatedAt: new Date() }).where(eq(devices.id, id));
      await tx.update(devices).set({ search: searchDocument }).where(eq(devices.id, id));
    });
  }

  /**
   * What an agent reports (properties, addresses, drives, status). Lives here so the search
   * document follows every write; the agent capability calls it.
   */
  async updateReported(
    id: string,
    values: Partial<Pick<DeviceRow, 'properties' | 'addresses' | 'drives' | 'online' | 'lastResponse' | 'latency'>>,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.update(devices).set({ ...values, updatedAt: new Date() }).where(eq(devices.id, id));
      await tx.update(devices).set({ search: searchDocument }).where(eq(devices.id, id));
    });
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(devices).where(eq(devices.id, id));
  }

  async findById(id: string): Promise<DeviceWithOrganization | undefined> {
    const [row] = await this.db
      .select({ device: deviceColumns, organization: organizationColumns })
      .from(devices)
      .innerJoin(organizations, eq(organizations.id, devices.organizationId))
      .where(eq(devices.id, id));
    return row;
  }

  /** One page of the caller's devices matching the query, and the counts per tab of that query. */
  async search(q: DeviceSearch): Promise<{ rows: DeviceWithOrganization[]; totals: DeviceTotals }> {
    const scope = this.scope(q.username, q.search);
    const statusFilter =
      q.status === 'online' ? eq(devices.online, true) : q.status === 'offline' ? eq(devices.online, false) : undefined;
    const pageQuery = this.db
      .select({ device: deviceColumns, organization: organizationColumns })
      .from(devices)
      .innerJoin(organizations, eq(organizations.id, devices.organizationId))
      .where(and(scope, statusFilter))
      .orderBy(asc(devices.name), asc(devices.id))
      .limit(q.limit)
      .offset(q.offset);
    const countQuery = this.db
      .select({
        ALL: sql<number>`count(*)::int`,
        ONLINE: sql<number>`(count(*) filter (where ${devices.online}))::int`,
        OFFLINE: sql<number>`(count(*) filter (where not ${devices.online}))::int`,
      })
      .from(devices)
      .where(scope);
    // On PostgreSQL both run at once on two pool connections; PGlite queues them.
    const [rows, [totals]] = await Promise.all([pageQuery, countQuery]);
    return { rows, totals: totals ?? { ALL: 0, ONLINE: 0, OFFLINE: 0 } };
  }

  /** Devices of the user's organizations that match the search text (full-text prefix or id prefix). */
  private scope(username: string, search: string | undefined): SQL | undefined {
    const member = inArray(devices.organizationId, this.memberOrganizations(username));
    const tsquery = toPrefixQuery(search);
    if (!tsquery) return member;
    const text = sql`${devices.search} @@ to_tsquery('simple', ${tsquery})`;
    const range = idPrefixRange(search);
    const match = range ? sql`(${text} or ${devices.id} between ${range.from}::uuid and ${range.to}::uuid)` : text;
    return and(member, match);
  }

  /** Distinct tags of the user's devices, for suggestions. */
  async tagsOf(username: string, limit = 500): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ tag: sql<string>`unnest(${devices.tags})`.as('tag') })
      .from(devices)
      .where(inArray(devices.organizationId, this.memberOrganizations(username)))
      .orderBy(sql`1`)
      .limit(limit);
    return rows.map((r) => r.tag);
  }

  /** Organizations where the user holds one of the roles, for the device form's select. */
  async organizationsWithRole(username: string, roles: ('CREATOR' | 'ADMIN' | 'USER')[]) {
    return this.db
      .select({ id: organizations.id, type: organizations.type, name: organizations.name })
      .from(organizations)
      .innerJoin(organizationMembers, eq(organizationMembers.organizationId, organizations.id))
      .where(and(eq(organizationMembers.email, username), inArray(organizationMembers.role, roles)))
      .orderBy(sql`${organizations.type} = 'COMPANY'`, asc(organizations.name));
  }

  /** Rebuilds the search document of every device; answers how many were indexed. */
  async reindexAll(): Promise<number> {
    const result = await this.db.execute<{ indexed: number }>(
      sql`with u as (update ${devices} set search = ${searchDocument} returning 1) select count(*)::int as indexed from u`,
    );
    return Number(result.rows[0]?.indexed ?? 0);
  }
}
