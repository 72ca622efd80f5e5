import type { TunnelForm } from '@fleetlink/contract';
import { and, asc, count, eq, gte, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { deviceServers, devices, organizationDomains, servers, tunnels } from '../../db/schema/index.js';

/**
 * The domain the device's proxy serves tunnels on, as it said at its last start (null before): a
 * tunnel without a custom domain is at `{path}.{that domain}`.
 */
export const proxyDomainOfDevice = (deviceId: SQL | AnyColumn) =>
  sql<string | null>`(select ${servers.tunnelDomain} from ${deviceServers} inner join ${servers} on ${servers.id} = ${deviceServers.serverId}
    where ${deviceServers.deviceId} = ${deviceId} and ${servers.type} = 'PROXY' limit 1)`;

const rowColumns = {
  id: tunnels.id,
  deviceId: tunnels.deviceId,
  name: tunnels.name,
  type: tunnels.type,
  port: tunnels.port,
  mode: tunnels.mode,
  domainId: tunnels.domainId,
  customDomain: organizationDomains.domain,
  proxyDomain: proxyDomainOfDevice(tunnels.deviceId),
  path: tunnels.path,
  host: tunnels.host,
  securityIp: tunnels.securityIp,
  securityUsername: tunnels.securityUsername,
  securityPasswordHash: tunnels.securityPasswordHash,
  state: tunnels.state,
  mapping: tunnels.mapping,
  online: devices.online,
  organizationId: devices.organizationId,
};

/** A tunnel as selected: with its custom domain's name (null for the proxy's own) and its device's state. */
export type TunnelRecord = Awaited<ReturnType<TunnelsRepository['list']>>[number];

/** What is stored of a form: the password only as its hash. */
export type TunnelValues = Omit<TunnelForm, 'securityPassword' | 'host'> & { host: string; path: string | null; securityPasswordHash: string | null };

/** The SQL of tunnels: their definitions, and the state their proxies report. */
export class TunnelsRepository {
  constructor(private readonly db: Db) {}

  private select() {
    return this.db
      .select(rowColumns)
      .from(tunnels)
      .innerJoin(devices, eq(devices.id, tunnels.deviceId))
      .leftJoin(organizationDomains, eq(organizationDomains.id, tunnels.domainId));
  }

  list(deviceId: string) {
    return this.select().where(eq(tunnels.deviceId, deviceId)).orderBy(asc(tunnels.port));
  }

  async find(deviceId: string, id: string): Promise<TunnelRecord | undefined> {
    const [row] = await this.select().where(and(eq(tunnels.deviceId, deviceId), eq(tunnels.id, id)));
    return row;
  }

  async byPort(deviceId: string, port: number): Promise<TunnelRecord | undefined> {
    const [row] = await this.select().where(and(eq(tunnels.deviceId, deviceId), eq(tunnels.port, port)));
    return row;
  }

  async countOf(deviceId: string): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(tunnels).where(eq(tunnels.deviceId, deviceId));
    return row?.n ?? 0;
  }

  async pathTaken(path: string): Promise<boolean> {
    const [row] = await this.db.select({ n: count() }).from(tunnels).where(eq(tunnels.path, path));
    return (row?.n ?? 0) > 0;
  }

  async insert(deviceId: string, values: TunnelValues): Promise<string> {
    const [row] = await this.db.insert(tunnels).values({ deviceId, ...values }).returning({ id: tunnels.id });
    return row!.id;
  }

  /**
   * A new definition: false when there was no such tunnel. An edited tunnel waits for someone to
   * connect it: a connect made under its old definition (say, as EPHEMERAL) does not make it wanted.
   */
  async update(deviceId: string, id: string, values: TunnelValues): Promise<boolean> {
    const rows = await this.db.update(tunnels).set({ ...values, wanted: false }).where(and(eq(tunnels.deviceId, deviceId), eq(tunnels.id, id))).returning({ id: tunnels.id });
    return rows.length > 0;
  }

  async delete(deviceId: string, id: string): Promise<boolean> {
    const rows = await this.db.delete(tunnels).where(and(eq(tunnels.deviceId, deviceId), eq(tunnels.id, id))).returning({ id: tunnels.id });
    return rows.length > 0;
  }

  /**
   * What a proxy reported; only for the device the tunnel belongs to. A disconnect counts only from
   * the proxy that serves the tunnel: a device that moved to another proxy connected it there
   * first, and the old proxy's report of its end comes after. False when there is no such tunnel.
   */
  async recordState(deviceId: string, id: string, state: 'CONNECTED' | 'DISCONNECTED', mapping: string | null, proxyServerId: string, refusal: string | null = null): Promise<boolean> {
    const tunnel = and(eq(tunnels.deviceId, deviceId), eq(tunnels.id, id));
    const fromServing = sql`(${tunnels.proxyServerId} is null or ${tunnels.proxyServerId} = ${proxyServerId})`;
    const rows = await this.db
      .update(tunnels)
      .set({ state, mapping, proxyServerId, refusal, stateAt: new Date() })
      .where(state === 'CONNECTED' ? tunnel : and(tunnel, fromServing))
      .returning({ id: tunnels.id });
    if (rows.length > 0) return true;
    const [found] = await this.db.select({ id: tunnels.id }).from(tunnels).where(tunnel);
    return !!found;
  }

  /** Why a proxy refused to serve the tunnel, when it said so since `since`. */
  async refusalSince(deviceId: string, id: string, since: Date): Promise<string | undefined> {
    const [row] = await this.db
      .select({ refusal: tunnels.refusal })
      .from(tunnels)
      .where(and(eq(tunnels.deviceId, deviceId), eq(tunnels.id, id), gte(tunnels.stateAt, since)));
    return row?.refusal ?? undefined;
  }

  /** Whether the tunnel is to be opened again after restarts (a PERMANENT one someone connected). */
  async setWanted(deviceId: string, id: string, wanted: boolean): Promise<void> {
    await this.db.update(tunnels).set({ wanted }).where(and(eq(tunnels.deviceId, deviceId), eq(tunnels.id, id)));
  }

  /** Which of these devices have a wanted PERMANENT tunnel: one statement for a batch of devices coming online. */
  async withWantedPermanent(deviceIds: string[]): Promise<string[]> {
    if (!deviceIds.length) return [];
    const rows = await this.db
      .selectDistinct({ id: tunnels.deviceId })
      .from(tunnels)
      .where(and(sql`${tunnels.deviceId} = any(${sql.param(deviceIds)}::uuid[])`, eq(tunnels.mode, 'PERMANENT'), eq(tunnels.wanted, true)));
    return rows.map((r) => r.id);
  }

  /** The device's PERMANENT tunnels someone connected and nobody disconnected since, with its organization and state. */
  wantedPermanent(deviceId: string) {
    return this.db
      .select({ id: tunnels.id, port: tunnels.port, host: tunnels.host, organizationId: devices.organizationId, online: devices.online })
      .from(tunnels)
      .innerJoin(devices, eq(devices.id, tunnels.deviceId))
      .where(and(eq(tunnels.deviceId, deviceId), eq(tunnels.mode, 'PERMANENT'), eq(tunnels.wanted, true)))
      .orderBy(asc(tunnels.port));
  }

  /** The online devices with a wanted PERMANENT tunnel that a proxy served: to be opened again when it restarts. */
  async devicesWantingPermanentAt(proxyServerId: string): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ deviceId: tunnels.deviceId })
      .from(tunnels)
      .innerJoin(devices, eq(devices.id, tunnels.deviceId))
      .where(and(eq(tunnels.proxyServerId, proxyServerId), eq(tunnels.mode, 'PERMANENT'), eq(tunnels.wanted, true), eq(devices.online, true)));
    return rows.map((r) => r.deviceId);
  }

  /** The PROXY servers silent (no call, no hello) for longer than `ms` with tunnels still shown connected there. */
  async silentProxiesServing(ms: number): Promise<string[]> {
    const rows = await this.db
      .select({ id: servers.id })
      .from(servers)
      .where(
        and(
          eq(servers.type, 'PROXY'),
          sql`coalesce(${servers.heardAt}, ${servers.createdAt}) < now() - make_interval(secs => ${ms / 1000})`,
          sql`exists (select 1 from ${tunnels} where ${tunnels.proxyServerId} = ${servers.id} and ${tunnels.state} = 'CONNECTED')`,
        ),
      );
    return rows.map((r) => r.id);
  }

  /** A proxy restarted: nothing it served before is connected now. */
  /** The devices whose tunnels were connected there. */
  async disconnectAllOf(proxyServerId: string): Promise<string[]> {
    const rows = await this.db
      .update(tunnels)
      .set({ state: 'DISCONNECTED', mapping: null, stateAt: new Date() })
      .where(and(eq(tunnels.proxyServerId, proxyServerId), eq(tunnels.state, 'CONNECTED')))
      .returning({ deviceId: tunnels.deviceId });
    return [...new Set(rows.map((r) => r.deviceId))];
  }

  /** The domain the device's proxy said it serves tunnels on (null: none yet). */
  async proxyDomain(deviceId: string): Promise<string | null> {
    const [row] = await this.db
      .select({ domain: servers.tunnelDomain })
      .from(deviceServers)
      .innerJoin(servers, eq(servers.id, deviceServers.serverId))
      .where(and(eq(deviceServers.deviceId, deviceId), eq(servers.type, 'PROXY')));
    return row?.domain ?? null;
  }

  /** The ACTIVE custom domains of the device's organization, for the form and for serving. */
  activeDomains(deviceId: string): Promise<{ id: string; domain: string }[]> {
    return this.db
      .select({ id: organizationDomains.id, domain: organizationDomains.domain })
      .from(organizationDomains)
      .innerJoin(devices, eq(devices.organizationId, organizationDomains.organizationId))
      .where(and(eq(devices.id, deviceId), eq(organizationDomains.status, 'ACTIVE')))
      .orderBy(asc(organizationDomains.domain));
  }

  /** Whether a path on a domain (the proxy's own: null) is a registered tunnel. */
  async hostExists(path: string, customDomain: string | null): Promise<boolean> {
    const q = this.db.select({ n: count() }).from(tunnels).leftJoin(organizationDomains, eq(organizationDomains.id, tunnels.domainId));
    const [row] = await q.where(
      and(eq(tunnels.path, path), customDomain === null ? sql`${tunnels.domainId} is null` : eq(organizationDomains.domain, customDomain)),
    );
    return (row?.n ?? 0) > 0;
  }
}
