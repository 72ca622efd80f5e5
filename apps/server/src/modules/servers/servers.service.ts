import { AuditKind, serverMissingFields, type ConsoleInstance, type Server, type ServerForm } from '@fleetlink/contract';
import type { Principal } from '../../auth/principal.js';
import { badRequest, conflict, notFound } from '../../lib/app-error.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { HubLog } from '../broker/hub-connection.js';
import { proxyCalling } from '../tunnels/proxy-liveness.js';
import type { MessageHub } from '../broker/message-hub.js';
import type { DeviceCredentials } from '../enrollment/credentials.js';
import type { ServerInsert, ServersRepository, ServerWithLoad } from './servers.repository.js';

/** What a server form says, as the audit trail keeps it: never its password, trust store or key. */
const serverDetails = (form: ServerForm) => ({
  type: form.type,
  url: form.url.trim(),
  status: form.status,
  maxCapacity: form.maxCapacity,
  organization: blank(form.organization),
  username: blank(form.username),
});

const blank = (v: string | null | undefined) => (v === undefined || v === null || v.trim() === '' ? null : v.trim());

/** The fields a server still lacks once a blank secret is taken as the one it keeps (SPEC §5). */
function requireFilled(values: ServerInsert) {
  const missing = serverMissingFields(values);
  const first = Object.values(missing)[0];
  if (first) throw badRequest(first, missing);
}

/** The fields of a built-in server that are the console's own; only capacity, status and notes are the administrator's. */
const builtInFields = ['type', 'url', 'organizationId', 'username', 'password', 'trustStore', 'trustStorePassword', 'blobBaseUrl', 'hostKey'] as const;
const BUILT_IN_FIXED = 'A built-in server is started with the console: only its max capacity, status and notes can change.';

/** A built-in server's form may leave the console's own fields blank (its username is not even answered): blank is unchanged. */
function refuseBuiltInChanges(before: ServerWithLoad, values: ServerInsert) {
  const changed = builtInFields.filter((f) => (values[f] ?? null) !== null && values[f] !== (before[f] ?? null));
  if (changed.length > 0) throw badRequest(BUILT_IN_FIXED, Object.fromEntries(changed.map((f) => [f === 'organizationId' ? 'organization' : f, BUILT_IN_FIXED])));
}

/**
 * A PROXY server's state from its own calls (ProxyLiveness), the same on every console: up since
 * its last hello while it keeps calling; unreachable since its last call once it has been silent
 * for PROXY_SILENCE_MS; null before its first call.
 */
function proxyConnection(row: Pick<ServerWithLoad, 'heardAt' | 'upSince'>, now = Date.now()): Server['connection'] {
  if (!row.heardAt) return null;
  if (proxyCalling(row.heardAt, now)) return { state: 'CONNECTED', since: (row.upSince ?? row.heardAt).toISOString(), error: null };
  return { state: 'UNREACHABLE', since: row.heardAt.toISOString(), error: 'the proxy has not called the console since then' };
}

/** Server administration, assignment moves and the hub's connections (all realm ADMIN). */
export class ServersService {
  constructor(
    private readonly repo: ServersRepository,
    private readonly hub: MessageHub,
    private readonly credentials: DeviceCredentials,
    private readonly log: HubLog,
    private readonly audit: AuditTrail,
    /** A device moved to another PROXY server: its tunnels are to follow (started, not awaited). */
    private readonly onProxyMove?: (deviceId: string) => void,
  ) {}

  toDto(row: ServerWithLoad): Server {
    return {
      id: row.id,
      type: row.type,
      url: row.url,
      notes: row.notes,
      maxCapacity: row.maxCapacity,
      status: row.status,
      devicesCount: row.devicesCount,
      organization: row.organizationId ? { id: row.organizationId, name: row.organizationName ?? '' } : null,
      // The console's own account on a built-in server is nobody else's business, its name included.
      username: row.builtIn ? null : row.username,
      passwordSet: row.password !== null,
      trustStore: row.trustStore,
      trustStorePasswordSet: row.trustStorePassword !== null,
      blobBaseUrl: row.blobBaseUrl,
      hostKey: row.hostKey,
      builtIn: row.builtIn,
      connected: row.type === 'MESSAGE' ? (this.hub.isConnected(row.id) ?? false) : null,
      connection: row.type === 'MESSAGE' ? this.connectionOf(row.id) : proxyConnection(row),
    };
  }

  private connectionOf(serverId: string): Server['connection'] {
    const c = this.hub.connectionState(serverId);
    // None: registered at another console since this one's hub last (re)connected.
    return c ? { state: c.state, since: c.since.toISOString(), error: c.error } : null;
  }

  async list(): Promise<Server[]> {
    return (await this.repo.list()).map((r) => this.toDto(r));
  }

  async get(id: string): Promise<Server> {
    const row = await this.repo.findById(id);
    if (!row) throw notFound('Server not found.');
    return this.toDto(row);
  }

  /** What a form writes; on an update, a blank secret keeps the one set (it is never answered, so never sent back). */
  private async values(form: ServerForm, before?: ServerWithLoad): Promise<ServerInsert> {
    const organizationId = blank(form.organization);
    if (organizationId && !(await this.repo.organizationExists(organizationId))) {
      throw badRequest('Organization not found.', { organization: 'Organization not found.' });
    }
    // A blank secret keeps the one set, for the same type of server only: a proxy's sign-in password is no broker account's.
    const kept = before?.type === form.type ? before : undefined;
    return {
      type: form.type,
      url: form.url.trim(),
      notes: blank(form.notes),
      maxCapacity: form.maxCapacity,
      status: form.status,
      organizationId,
      username: blank(form.username),
      password: blank(form.password) ?? kept?.password ?? null,
      trustStore: blank(form.trustStore)?.replace(/\s+/g, '') ?? null,
      trustStorePassword: blank(form.trustStorePassword) ?? kept?.trustStorePassword ?? null,
      blobBaseUrl: blank(form.blobBaseUrl),
      hostKey: blank(form.hostKey),
    };
  }

  create(p: Principal, form: ServerForm): Promise<Server> {
    return this.audit.track(
      p,
      { kind: AuditKind.ServerCreate, details: serverDetails(form) },
      async () => {
        const id = await this.repo.insert(await this.values(form));
        if (form.type === 'MESSAGE') await this.hub.reload();
        return this.get(id);
      },
      (server) => ({ details: { serverId: server.id } }),
    );
  }

  async update(p: Principal, id: string, form: ServerForm): Promise<Server> {
    return this.audit.track(p, { kind: AuditKind.ServerUpdate, details: { serverId: id, ...serverDetails(form) } }, async () => {
      const before = await this.repo.findById(id);
      if (!before) throw notFound('Server not found.');
      const values = await this.values(form, before);
      if (before.builtIn) {
        refuseBuiltInChanges(before, values);
        await this.repo.update(id, { maxCapacity: values.maxCapacity, status: values.status, notes: values.notes });
        return this.get(id);
      }
      if (before.type !== form.type && before.devicesCount > 0) {
        throw conflict(`This server has ${before.devicesCount} devices: move them before changing its type.`);
      }
      requireFilled(values);
      await this.repo.update(id, values);
      if (form.type === 'MESSAGE' || before.type === 'MESSAGE') await this.hub.reload();
      return this.get(id);
    });
  }

  delete(p: Principal, id: string): Promise<void> {
    return this.audit.track(
      p,
      { kind: AuditKind.ServerDelete, details: { serverId: id } },
      async () => {
        const row = await this.repo.findById(id);
        if (!row) throw notFound('Server not found.');
        if (row.devicesCount > 0) {
          throw conflict(`This server still has ${row.devicesCount} devices: migrate them to another server first.`);
        }
        await this.repo.delete(id);
        if (row.type === 'MESSAGE') await this.hub.reload();
        return row;
      },
      (row) => ({ details: { type: row.type, url: row.url } }),
    ).then(() => undefined);
  }

  consoleInstance(): ConsoleInstance {
    return this.hub.instance();
  }

  reload(p: Principal): Promise<number> {
    return this.audit.track(p, { kind: AuditKind.ServersReload }, () => this.hub.reload(), (connections) => ({ details: { connections } }));
  }

  async serversOf(deviceId: string): Promise<Server[]> {
    return (await this.repo.assignedTo(deviceId)).map((r) => this.toDto(r));
  }

  /**
   * Moves a device from one server to another of the same type (recorded as the device's). For message servers the device's
   * account is provisioned on the target first, then its agent is told to move (if it is
   * reachable now; otherwise it is redirected the next time it connects to the old server). Its
   * connected tunnels follow a move to another proxy.
   */
  migrate(p: Principal, deviceId: string, fromServerId: string, toServerId: string): Promise<Server[]> {
    const action = { kind: AuditKind.DeviceMigrate, deviceId, details: { fromServerId, toServerId } };
    return this.audit.track(p, action, async () => {
      const assigned = await this.repo.assignedTo(deviceId);
      const from = assigned.find((s) => s.id === fromServerId);
      if (!from) throw notFound('The device is not assigned to this server.');
      const to = await this.repo.findById(toServerId);
      if (!to) throw notFound('Server not found.');
      if (to.id === from.id) throw badRequest('The device is already on this server.');
      if (to.type !== from.type) throw badRequest('A device can only move to a server of the same type.');
      if (to.type === 'MESSAGE') {
        const creds = await this.credentials.current(deviceId);
        if (creds) await this.hub.provisionDevice(to.id, deviceId, creds.password);
        await this.repo.move(deviceId, from.id, to.id);
        if (creds) {
          const via = this.hub.connection(from.id);
          await this.tellAgentToMove(deviceId, to, creds.password, via);
        }
        // Nothing of it stays on the old server: an agent that missed the move is refused there
        // and renews its enrollment, whose answer names its new server.
        await this.hub.retireFrom(from.id, deviceId).catch((err: Error) => this.log.warn({ deviceId, serverId: from.id, err: err.message }, 'the device account could not be removed from its old message server'));
      } else {
        await this.repo.move(deviceId, from.id, to.id);
        this.onProxyMove?.(deviceId);
      }
      return this.serversOf(deviceId);
    });
  }

  /** A device connected to a server it no longer belongs to: send it on to its assigned one. */
  async redirect(deviceId: string, currentServerId: string): Promise<void> {
    const target = (await this.repo.assignedTo(deviceId)).find((s) => s.type === 'MESSAGE');
    const creds = await this.credentials.current(deviceId);
    if (!target || !creds || target.id === currentServerId) return;
    await this.hub.provisionDevice(target.id, deviceId, creds.password);
    await this.tellAgentToMove(deviceId, target, creds.password, this.hub.connection(currentServerId));
  }

  private async tellAgentToMove(deviceId: string, to: ServerWithLoad, password: string, via = this.hub.connection(to.id)) {
    try {
      await this.hub.request(
        deviceId,
        'migrate',
        { server: { id: to.id, url: to.url, trustStore: to.trustStore }, password },
        { via, timeoutMs: 10_000 },
      );
      this.log.info({ deviceId, serverId: to.id }, 'device told to move to its new message server');
    } catch (err) {
      this.log.info({ deviceId, serverId: to.id, err: (err as Error).message }, 'device will move when it next connects');
    }
  }
}
