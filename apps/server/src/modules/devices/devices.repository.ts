import type { DeviceBranch, OrganizationRole } from '@fleetlink/contract';
import { and, asc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Member } from '../../auth/principal.js';
import { memberRoleIn, membershipOf, roleWithin } from '../organizations/membership.repository.js';
import { deviceSearch, deviceServers, devices, monitors, organizationDomains, organizationMembers, organizations, servers, tunnels } from '../../db/schema/index.js';
import type { InstallationKeys } from '../enrollment/installation-keys.js';
import type { MonitorRow } from '../monitors/monitors.repository.js';
import type { TunnelView } from '../tunnels/tunnel-view.js';
import { proxyDomainOfDevice } from '../tunnels/tunnels.repository.js';
import { driveScansOf, type ScanJson } from '../files/drive-scans.repository.js';
import { countMatches, type CountedTotals } from './device-counts.js';
import { pageIds } from './device-page.js';
import { idPrefixRange, searchTerms } from './device-search.js';

export type DeviceRow = typeof devices.$inferSelect;

export interface DeviceWithOrganization {
  device: DeviceRow;
  organization: { id: string; type: 'PERSONAL' | 'COMPANY'; name: string; domains: string[] };
  /** The servers it is assigned to (message, proxy), as urls only: credentials never leave the servers module. */
  servers: { url: string }[];
  /** Its monitors with their last readings, oldest first (`observedAt` as PostgreSQL writes a time in JSON). */
  monitors: MonitorRow[];
  /** Its tunnels by port, as the API's Tunnel is made from them. */
  tunnels: TunnelView[];
}

export interface DeviceWrite {
  organizationId: string;
  name: string;
  description: string | null;
  branch: DeviceBranch;
  tags: string[];
}

export interface DeviceSearch {
  member: Member;
  search?: string;
  status?: 'online' | 'offline';
  limit: number;
  offset: number;
}

const deviceColumns = getTableColumns(devices);

/** The organization part of a device answer, domains included (custom domains that are active). */
const organizationColumns = {
  id: organizations.id,
  type: organizations.type,
  name: organizations.name,
  domains: sql<string[]>`coalesce((select array_agg(${organizationDomains.domain} order by ${organizationDomains.domain})
    from ${organizationDomains} where ${organizationDomains.organizationId} = ${organizations.id}
    and ${organizationDomains.status} = 'ACTIVE'), '{}'::text[])`,
};

/** The device's assigned servers, one correlated sub-select on the (device, server) primary key. */
const serverUrls = sql<{ url: string }[]>`coalesce((select json_agg(json_build_object('url', ${servers.url})
    order by ${servers.type}, ${servers.url}) from ${deviceServers}
    inner join ${servers} on ${servers.id} = ${deviceServers.serverId}
    where ${deviceServers.deviceId} = ${devices.id}), '[]'::json)`;

/** The device's monitors, one correlated sub-select on the (device, name) index. */
const monitorRows = sql<MonitorRow[]>`coalesce((select json_agg(json_build_object('id', ${monitors.id}, 'name', ${monitors.name},
    'type', ${monitors.type}, 'path', ${monitors.path}, 'value', ${monitors.value}, 'note', ${monitors.note},
    'observedAt', ${monitors.observedAt}) order by ${monitors.createdAt}, ${monitors.name})
    from ${monitors} where ${monitors.deviceId} = ${devices.id}), '[]'::json)`;

/** What every device answer selects. */
/** The device's tunnels, one correlated sub-select on the (device, port) index; never a password hash. */
const tunnelRows = sql<TunnelView[]>`coalesce((select json_agg(json_build_object('id', ${tunnels.id}, 'name', ${tunnels.name},
    'type', ${tunnels.type}, 'port', ${tunnels.port}, 'mode', ${tunnels.mode}, 'domainId', ${tunnels.domainId},
    'customDomain', (select ${organizationDomains.domain} from ${organizationDomains} where ${organizationDomains.id} = ${tunnels.domainId}),
    'proxyDomain', ${proxyDomainOfDevice(devices.id)},
    'path', ${tunnels.path}, 'host', ${tunnels.host}, 'securityIp', ${tunnels.securityIp}, 'securityUsername', ${tunnels.securityUsername},
    'hasPassword', ${tunnels.securityPasswordHash} is not null, 'state', ${tunnels.state}, 'mapping', ${tunnels.mapping},
    'online', ${devices.online}) order by ${tunnels.port})
    from ${tunnels} where ${tunnels.deviceId} = ${devices.id}), '[]'::json)`;

const answerColumns = { device: deviceColumns, organization: organizationColumns, servers: serverUrls, monitors: monitorRows, tunnels: tunnelRows };

/** Devices that match the search text: every term (device_search_term), or an id prefix. */
export function matchCondition(search: string | undefined): SQL | undefined {
  const terms = searchTerms(search);
  if (!terms) return undefined;
  const query = sql.join(terms.map((t) => sql`device_search_term(${t})`), sql` && `);
  const text = sql`${deviceSearch.document} @@ (${query})`;
  const range = idPrefixRange(search);
  return range ? sql`(${text} or ${deviceSearch.deviceId} between ${range.from}::uuid and ${range.to}::uuid)` : text;
}

/** The SQL of devices: reads are scoped by membership (the search rows follow writes by trigger). */
export class DevicesRepository {
  constructor(
    private readonly db: Db,
    /** The installation key is kept sealed: written sealed here, opened only for a manager's answer. */
    private readonly keys: InstallationKeys,
  ) {}

  /** Organizations of the user, as a sub-select: every list query is limited to them. */
  /** Name, online state and whether an agent reported, of those of `ids` in the member's organizations. */
  async statuses(member: Member, ids: string[]): Promise<{ id: string; name: string; online: boolean; installed: boolean }[]> {
    if (!ids.length) return [];
    return this.db
      .select({ id: devices.id, name: devices.name, online: devices.online, installed: sql<boolean>`${devices.properties} is not null` })
      .from(devices)
      .where(and(inArray(devices.id, ids), inArray(devices.organizationId, this.memberOrganizations(member))));
  }

  private memberOrganizations(member: Member) {
    return this.db.select({ id: organizationMembers.organizationId }).from(organizationMembers).where(membershipOf(member));
  }

  async insert(values: DeviceWrite & { installationKey: string }): Promise<string> {
    const [row] = await this.db
      .insert(devices)
      .values({ ...values, installationKey: this.keys.seal(values.installationKey) })
      .returning({ id: devices.id });
    return row!.id;
  }

  async update(id: string, values: DeviceWrite): Promise<void> {
    await this.db.update(devices).set({ ...values, updatedAt: new Date() }).where(eq(devices.id, id));
  }

  /**
   * What agents report about themselves (at each connect, and when it changes), many devices' in
   * one statement; answers the ids whose row changed. A row is left alone when its report is the
   * same as the last: a fleet reconnecting at once (a message server restarted) would otherwise
   * rewrite every device's row, its indexes and its search document's check, for nothing, and one
   * statement per device was the most of a reconnecting fleet's round trips (issue 70). Rows are
   * locked in id order, as the state batches lock them, so two consoles' batches cannot deadlock;
   * of two reports of one device, the later one is written.
   */
  async updateReported(reports: ({ id: string } & Pick<DeviceRow, 'properties' | 'addresses' | 'drives'>)[]): Promise<Set<string>> {
    const latest = [...new Map(reports.map((r) => [r.id, r])).values()];
    if (!latest.length) return new Set();
    const column = (of: (r: (typeof latest)[number]) => unknown) => sql.param(latest.map((r) => JSON.stringify(of(r))));
    const result = await this.db.execute<{ id: string }>(sql`
      with v(id, properties, addresses, drives) as (
        select * from unnest(${sql.param(latest.map((r) => r.id))}::uuid[], ${column((r) => r.properties)}::jsonb[],
          ${column((r) => r.addresses)}::jsonb[], ${column((r) => r.drives)}::jsonb[])
      ),
      changed as (
        select d.id from ${devices} d join v on v.id = d.id
        where (d.properties, d.addresses, d.drives) is distinct from (v.properties, v.addresses, v.drives)
        order by d.id for update of d
      )
      update ${devices} d set properties = v.properties, addresses = v.addresses, drives = v.drives, updated_at = now()
      from v join changed on changed.id = v.id where d.id = v.id
      returning d.id as id`);
    return new Set(result.rows.map((r) => r.id));
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(devices).where(eq(devices.id, id));
  }

  /** Whether the device's agent is connected, as its last state message said; undefined for no such device. */
  async isOnline(id: string): Promise<boolean | undefined> {
    const [row] = await this.db.select({ online: devices.online }).from(devices).where(eq(devices.id, id));
    return row?.online;
  }

  /**
   * The device with what its answer shows, the member's role in its organization (undefined: none)
   * and its drive scans, in one prepared statement: the hottest read of the API (GET /api/device/{id}).
   */
  async findForMember(id: string, member: Member): Promise<(DeviceWithOrganization & { role?: OrganizationRole; scans: ScanJson[] }) | undefined> {
    this.forMember ??= this.prepareForMember();
    const [row] = await this.forMember.execute({ id, username: member.username });
    if (!row) return undefined;
    const role = roleWithin(member, row.device.organizationId, row.role);
    return { ...row, role, device: { ...row.device, installationKey: this.keys.open(row.device.installationKey) } };
  }

  private forMember?: ReturnType<DevicesRepository['prepareForMember']>;

  private prepareForMember() {
    return this.db
      .select({
        ...answerColumns,
        role: memberRoleIn(devices.organizationId, sql.placeholder('username')),
        scans: driveScansOf(devices.id),
      })
      .from(devices)
      .innerJoin(organizations, eq(organizations.id, devices.organizationId))
      .where(eq(devices.id, sql.placeholder('id')))
      .prepare('device_for_member');
  }

  async findById(id: string): Promise<DeviceWithOrganization | undefined> {
    const [row] = await this.answersOf([id]);
    return row && { ...row, device: { ...row.device, installationKey: this.keys.open(row.device.installationKey) } };
  }

  /**
   * One page of the caller's devices matching the query, and the counts per tab of that query
   * (exact up to 10,000, see countMatches); the counts pick the plan for the page (pageIds), so a
   * page of a million-device fleet never sorts the fleet.
   */
  async search(q: DeviceSearch): Promise<{ rows: DeviceWithOrganization[] } & CountedTotals> {
    const organizationIds = (await this.memberOrganizations(q.member)).map((m) => m.id);
    const none = { ALL: 0, ONLINE: 0, OFFLINE: 0 };
    if (!organizationIds.length) return { rows: [], totals: none, estimated: { ALL: false, ONLINE: false, OFFLINE: false } };
    const match = matchCondition(q.search);
    const { totals, estimated } = await countMatches(this.db, organizationIds, match);
    const tab = q.status === 'online' ? 'ONLINE' : q.status === 'offline' ? 'OFFLINE' : 'ALL';
    const matching = totals[tab];
    if (!estimated[tab] && q.offset >= matching) return { rows: [], totals, estimated };

    const status = q.status === 'online' ? sql`${deviceSearch.online}` : q.status === 'offline' ? sql`not ${deviceSearch.online}` : undefined;
    const ids = await pageIds(this.db, { organizationIds, match, status, matching, estimated: estimated[tab], limit: q.limit, offset: q.offset });
    const rows = ids.length ? await this.answersOf(ids) : [];
    const order = new Map(ids.map((id, i) => [id, i]));
    rows.sort((a, b) => order.get(a.device.id)! - order.get(b.device.id)!);
    return { rows, totals, estimated };
  }

  /**
   * The answers of devices by id (a search's page, or one device), as one prepared statement: its
   * correlated sub-selects took PostgreSQL longer to plan than to run (0.3 ms parse and 0.8 ms plan
   * against 0.7 ms run, for 20 devices), on every search. In no particular order.
   */
  private answersOf(ids: string[]) {
    this.byIds ??= this.prepareAnswersOf();
    return this.byIds.execute({ ids });
  }

  private byIds?: ReturnType<DevicesRepository['prepareAnswersOf']>;

  private prepareAnswersOf() {
    return this.db
      .select(answerColumns)
      .from(devices)
      .innerJoin(organizations, eq(organizations.id, devices.organizationId))
      .where(sql`${devices.id} = any(${sql.placeholder('ids')}::uuid[])`)
      .prepare('device_answers_by_id');
  }

  /** Distinct tags of the user's devices, for suggestions. */
  async tagsOf(member: Member, limit = 500): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ tag: sql<string>`unnest(${devices.tags})`.as('tag') })
      .from(devices)
      .where(inArray(devices.organizationId, this.memberOrganizations(member)))
      .orderBy(sql`1`)
      .limit(limit);
    return rows.map((r) => r.tag);
  }

  /** Organizations where the user holds one of the roles, for the device form's select. */
  async organizationsWithRole(member: Member, roles: readonly ('CREATOR' | 'ADMIN' | 'USER')[]) {
    return this.db
      .select({ id: organizations.id, type: organizations.type, name: organizations.name })
      .from(organizations)
      .innerJoin(organizationMembers, eq(organizationMembers.organizationId, organizations.id))
      .where(and(membershipOf(member), inArray(organizationMembers.role, roles)))
      .orderBy(sql`${organizations.type} = 'COMPANY'`, asc(organizations.name));
  }

  /**
   * Rebuilds the search row of every device from the device itself (what the triggers maintain,
   * recomputed: after a change to the document's definition, or to repair); answers how many.
   */
  async reindexAll(): Promise<number> {
    const result = await this.db.execute<{ indexed: number }>(sql`
      with u as (
        insert into ${deviceSearch} (device_id, organization_id, name, online, document)
        select d.id, d.organization_id, d.name, d.online, device_search_document(d) from ${devices} d
        on conflict (device_id) do update set organization_id = excluded.organization_id, name = excluded.name,
          online = excluded.online, document = excluded.document
        returning 1)
      select count(*)::int as indexed from u`);
    return Number(result.rows[0]?.indexed ?? 0);
  }
}
