import type { ServerStatus, ServerType } from '@fleetlink/contract';
import { and, asc, count, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import type { Db, DbExecutor } from '../../db/client.js';
import { deviceServers, devices, organizations, servers } from '../../db/schema/index.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { sealedAs } from '../system/secrets-at-rest.js';

export type ServerRow = typeof servers.$inferSelect;
export type ServerInsert = typeof servers.$inferInsert;
export interface ServerWithLoad extends ServerRow {
  devicesCount: number;
  organizationName: string | null;
}

const devicesCount = sql<number>`(select count(*)::int from ${deviceServers} where ${deviceServers.serverId} = ${servers.id})`;

/**
 * The SQL of servers and of which device uses which. The console's passwords on them are sealed in
 * the database and open only here: callers read and write them in plain text.
 */
export class ServersRepository {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
  ) {}

  private opened<T extends Partial<Pick<ServerRow, 'password' | 'trustStorePassword'>>>(row: T): T {
    const out = { ...row };
    if (row.password !== undefined) out.password = this.box.openNullable(row.password, sealedAs.serverPassword);
    if (row.trustStorePassword !== undefined) out.trustStorePassword = this.box.openNullable(row.trustStorePassword, sealedAs.trustStorePassword);
    return out;
  }

  private sealed<T extends Partial<ServerInsert>>(values: T): T {
    return {
      ...values,
      ...(values.password !== undefined ? { password: this.box.sealNullable(values.password, sealedAs.serverPassword) } : {}),
      ...(values.trustStorePassword !== undefined ? { trustStorePassword: this.box.sealNullable(values.trustStorePassword, sealedAs.trustStorePassword) } : {}),
    };
  }

  private selectWithLoad() {
    return this.db
      .select({ ...getTableColumns(servers), devicesCount, organizationName: organizations.name })
      .from(servers)
      .leftJoin(organizations, eq(organizations.id, servers.organizationId));
  }

  async list(type?: ServerType): Promise<ServerWithLoad[]> {
    const q = this.selectWithLoad();
    return (await (type ? q.where(eq(servers.type, type)) : q).orderBy(asc(servers.type), asc(servers.createdAt))).map((r) => this.opened(r));
  }

  async findById(id: string): Promise<ServerWithLoad | undefined> {
    const [row] = await this.selectWithLoad().where(eq(servers.id, id));
    return row && this.opened(row);
  }

  async insert(values: ServerInsert): Promise<string> {
    const [row] = await this.db.insert(servers).values(this.sealed(values)).returning({ id: servers.id });
    return row!.id;
  }

  async update(id: string, values: Partial<ServerInsert>): Promise<void> {
    await this.db.update(servers).set({ ...this.sealed(values), updatedAt: new Date() }).where(eq(servers.id, id));
  }

  /** Every server's type and, for a proxy, its last call: what the metrics' server_up reads. */
  liveness(): Promise<Pick<ServerRow, 'id' | 'type' | 'heardAt'>[]> {
    return this.db.select({ id: servers.id, type: servers.type, heardAt: servers.heardAt }).from(servers);
  }

  /** Online devices per MESSAGE server they are assigned to (the metrics' devices_online). */
  async onlineDevicesByServer(): Promise<{ serverId: string; online: number }[]> {
    return this.db
      .select({ serverId: deviceServers.serverId, online: count() })
      .from(deviceServers)
      .innerJoin(servers, and(eq(servers.id, deviceServers.serverId), eq(servers.type, 'MESSAGE')))
      .innerJoin(devices, and(eq(devices.id, deviceServers.deviceId), eq(devices.online, true)))
      .groupBy(deviceServers.serverId);
  }

  /** A PROXY server called the console (ProxyLiveness); `started`: it said hello, so it is up since now. */
  async heard(id: string, started = false): Promise<void> {
    await this.db
      .update(servers)
      .set(started ? { heardAt: sql`now()`, upSince: sql`now()` } : { heardAt: sql`now()` })
      .where(eq(servers.id, id));
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(servers).where(eq(servers.id, id));
  }

  async organizationExists(id: string): Promise<boolean> {
    const [row] = await this.db.select({ n: count() }).from(organizations).where(eq(organizations.id, id));
    return (row?.n ?? 0) > 0;
  }

  /** The servers a device is assigned to. */
  async assignedTo(deviceId: string): Promise<ServerWithLoad[]> {
    const rows = await this.selectWithLoad()
      .innerJoin(deviceServers, eq(deviceServers.serverId, servers.id))
      .where(eq(deviceServers.deviceId, deviceId))
      .orderBy(asc(servers.type));
    return rows.map((r) => this.opened(r));
  }

  /**
   * Which servers a device is assigned to, without their load: the per-message checks of the
   * telemetry and the hub run this for every device, and counting devices per server would make
   * each of them cost as much as the fleet is large.
   */
  assignments(deviceId: string): Promise<Pick<ServerRow, 'id' | 'type'>[]> {
    return this.db
      .select({ id: servers.id, type: servers.type })
      .from(deviceServers)
      .innerJoin(servers, eq(servers.id, deviceServers.serverId))
      .where(eq(deviceServers.deviceId, deviceId));
  }

  /**
   * A server's type and the password it signs in with, by primary key: a proxy's every call to the
   * proxy API (its revocations each second among them) checks it, and `findById` would count the
   * server's devices each time too.
   */
  async account(id: string): Promise<Pick<ServerRow, 'type' | 'password'> | undefined> {
    const [row] = await this.db.select({ type: servers.type, password: servers.password }).from(servers).where(eq(servers.id, id));
    return row && this.opened(row);
  }

  /**
   * The servers of a type that take new devices, least loaded first (SPEC §5 assignment): the
   * organization's private servers when it has any online, otherwise the shared ones. All of them,
   * not just the first: whether a server can be reached right now is the hub's knowledge, not SQL's.
   */
  async accepting(type: ServerType, organizationId: string): Promise<ServerRow[]> {
    const accepting: ServerStatus = 'ONLINE';
    const pick = (owner: ReturnType<typeof eq> | ReturnType<typeof isNull>) =>
      this.db
        .select(getTableColumns(servers))
        .from(servers)
        .where(and(eq(servers.type, type), eq(servers.status, accepting), owner))
        .orderBy(sql`${devicesCount}::float / greatest(${servers.maxCapacity}, 1)`, asc(servers.createdAt));
    const own = await pick(eq(servers.organizationId, organizationId));
    return (own.length > 0 ? own : await pick(isNull(servers.organizationId))).map((r) => this.opened(r));
  }

  async assign(deviceId: string, serverId: string, on: DbExecutor = this.db): Promise<void> {
    await on.insert(deviceServers).values({ deviceId, serverId }).onConflictDoNothing();
  }

  /** Moves a device from one server to another in one step. */
  async move(deviceId: string, fromServerId: string, toServerId: string, on: DbExecutor = this.db): Promise<void> {
    await on.transaction(async (tx) => {
      await tx.delete(deviceServers).where(and(eq(deviceServers.deviceId, deviceId), eq(deviceServers.serverId, fromServerId)));
      await tx.insert(deviceServers).values({ deviceId, serverId: toServerId }).onConflictDoNothing();
    });
  }
}
