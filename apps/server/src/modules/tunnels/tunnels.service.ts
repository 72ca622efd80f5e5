import {
  AuditKind,
  ErrorCode,
  RequestName,
  suggestTunnelPath,
  TUNNEL_DEFAULT_HOST,
  TUNNELS_PER_DEVICE_MAX,
  tunnelTexts,
  type Tunnel,
  type TunnelDomain,
  type TunnelForm,
  type TunnelStatus,
} from '@fleetlink/contract';
import { inBatches } from '@fleetlink/contract/in-batches';
import { hashTunnelPassword } from '@fleetlink/contract/tunnel-password';
import { randomBytes } from 'node:crypto';
import type { Principal } from '../../auth/principal.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/app-error.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { fieldChanges } from '../audit/field-changes.js';
import { callDevice, type DeviceCallDeps } from '../broker/device-call.js';
import type { HubLog } from '../broker/hub-connection.js';
import type { OrganizationPolicy } from '../organizations/organization.policy.js';
import { isUniqueViolation } from '../organizations/unique-violation.js';
import type { TunnelProxies } from './tunnel-proxies.js';
import { toTunnel } from './tunnel-view.js';
import type { TunnelRecord, TunnelsRepository, TunnelValues } from './tunnels.repository.js';

/** How long the device has to reach its proxy and have the forward accepted. */
const CONNECT_TIMEOUT_MS = 20_000;
/** A restarted proxy's PERMANENT tunnels are reopened spread over 10 ms a device, at most 15 s, 16 devices at a time, each retried 3 times. */
const REOPEN_SPREAD_PER_DEVICE_MS = 10;
const REOPEN_SPREAD_MAX_MS = 15_000;
const REOPEN_AT_ONCE = 16;
const REOPEN_RETRIES = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** What a tunnel edit can change, as the audit trail compares it (never the password). */
const EDITABLE = ['name', 'type', 'port', 'mode', 'domainId', 'path', 'host', 'securityIp', 'securityUsername'] as const;

const TEXTS = {
  notFound: 'Tunnel not found.',
  tooMany: `A device can have at most ${TUNNELS_PER_DEVICE_MAX} tunnels.`,
  portTaken: (port: number) => `This device has a tunnel for port ${port} already.`,
  pathTaken: (path: string) => `The path '${path}' is taken: choose another.`,
  domain: 'The domain is not an active custom domain of this device’s organization.',
  passwordNeeded: 'Password is required.',
  offline: 'The device is offline: a tunnel can only be connected or disconnected while it is online.',
  wentOffline: 'The device went offline before it answered.',
};

export interface TunnelsDeps extends DeviceCallDeps {
  repo: TunnelsRepository;
  policy: OrganizationPolicy;
  audit: AuditTrail;
  proxies: TunnelProxies;
  /** The console's TUNNEL_DOMAIN: where tunnels are for a proxy that has not said its own domain yet. */
  domain: string;
  log: Pick<HubLog, 'warn'>;
}

/**
 * Tunnels (SPEC §2 Network tab, §3, §4; issue 29): members read them, CREATOR and ADMIN change,
 * connect and disconnect them, every change is in the audit trail. Connecting asks the device's
 * agent to open a reverse forward at its proxy; the proxy reports the state, which is what the
 * status shows.
 */
export class TunnelsService {
  constructor(private readonly deps: TunnelsDeps) {}

  async list(p: Principal, deviceId: string): Promise<Tunnel[]> {
    await this.deps.policy.readDevice(p, deviceId);
    return (await this.deps.repo.list(deviceId)).map((t) => this.toTunnel(t));
  }

  async get(p: Principal, deviceId: string, id: string): Promise<Tunnel> {
    await this.deps.policy.readDevice(p, deviceId);
    return this.toTunnel(await this.found(deviceId, id));
  }

  /** The Domain choices of the form: the proxy's own domain, then the organization's ACTIVE ones. */
  async domains(p: Principal, deviceId: string): Promise<TunnelDomain[]> {
    await this.deps.policy.readDevice(p, deviceId);
    const own = (await this.deps.repo.proxyDomain(deviceId)) ?? this.deps.domain;
    return [{ id: null, domain: own }, ...(await this.deps.repo.activeDomains(deviceId))];
  }

  create(p: Principal, deviceId: string, form: TunnelForm): Promise<Tunnel> {
    const action = { kind: AuditKind.TunnelCreate, deviceId, details: describeForm(form) };
    return this.deps.audit.track(
      p,
      action,
      async () => {
        await this.deps.policy.writeDevice(p, deviceId);
        if ((await this.deps.repo.countOf(deviceId)) >= TUNNELS_PER_DEVICE_MAX) throw conflict(TEXTS.tooMany);
        const values = await this.values(deviceId, form);
        const id = await this.deps.repo.insert(deviceId, values).catch(this.taken(form, values));
        return this.toTunnel(await this.found(deviceId, id));
      },
      (tunnel) => ({ details: { id: tunnel.id, path: tunnel.path } }),
    );
  }

  async update(p: Principal, deviceId: string, id: string, form: TunnelForm): Promise<Tunnel> {
    const before = await this.deps.repo.find(deviceId, id);
    const details = before ? { id, port: form.port, changes: fieldChanges(before, form, EDITABLE) } : { id, ...describeForm(form) };
    return this.deps.audit.track(p, { kind: AuditKind.TunnelUpdate, deviceId, details }, async () => {
      await this.deps.policy.writeDevice(p, deviceId);
      const current = await this.found(deviceId, id);
      if (this.connected(current)) throw conflict(tunnelTexts.disconnectToEdit);
      const values = await this.values(deviceId, form, current);
      await this.deps.repo.update(deviceId, id, values).catch(this.taken(form, values));
      return this.toTunnel(await this.found(deviceId, id));
    });
  }

  async remove(p: Principal, deviceId: string, id: string): Promise<void> {
    await this.deps.audit.track(
      p,
      { kind: AuditKind.TunnelDelete, deviceId, details: { id } },
      async () => {
        await this.deps.policy.writeDevice(p, deviceId);
        const current = await this.found(deviceId, id);
        if (this.connected(current)) throw conflict(tunnelTexts.disconnectToRemove);
        await this.deps.repo.delete(deviceId, id);
        return current;
      },
      (removed) => ({ details: { name: removed.name, type: removed.type, port: removed.port, path: removed.path } }),
    );
  }

  start(p: Principal, deviceId: string, id: string): Promise<TunnelStatus> {
    return this.deps.audit.track(p, { kind: AuditKind.TunnelConnect, deviceId, details: { id } }, async () => {
      const { organizationId } = await this.deps.policy.writeDevice(p, deviceId);
      const tunnel = await this.found(deviceId, id);
      if (!tunnel.online) throw new AppError(409, ErrorCode.DeviceUnavailable, TEXTS.offline);
      await this.open(deviceId, organizationId, tunnel);
      await this.deps.repo.setWanted(deviceId, id, true);
      return this.toTunnel(await this.found(deviceId, id)).status;
    });
  }

  stop(p: Principal, deviceId: string, id: string): Promise<TunnelStatus> {
    return this.deps.audit.track(p, { kind: AuditKind.TunnelDisconnect, deviceId, details: { id } }, async () => {
      await this.deps.policy.writeDevice(p, deviceId);
      const tunnel = await this.found(deviceId, id);
      // First: a device that comes online meanwhile must not have it opened again.
      await this.deps.repo.setWanted(deviceId, id, false);
      await callDevice(this.deps, deviceId, RequestName.CloseTunnel, { tunnelId: tunnel.id, port: tunnel.port }, { timeoutMs: 10_000, graceMs: 2000 }, TEXTS);
      return this.toTunnel(await this.found(deviceId, id)).status;
    });
  }

  /**
   * Devices that came online: those with a wanted PERMANENT tunnel have them opened again. Which
   * have any is one statement for them all (a fleet reconnecting at once). Never throws.
   */
  async reopenPermanentOf(deviceIds: string[]): Promise<void> {
    const wanting = await this.deps.repo.withWantedPermanent(deviceIds).catch((err: Error) => {
      this.deps.log.warn({ devices: deviceIds.length, err: err.message }, 'permanent tunnels not opened again');
      return [];
    });
    await inBatches(wanting, REOPEN_AT_ONCE, (id) => this.reopenPermanent(id));
  }

  /**
   * Opens the device's PERMANENT tunnels again (SPEC §4: recreated when the device starts): called
   * each time its agent comes online and when the proxy that served them restarts. Asking an agent
   * that has a tunnel open already changes nothing. Never throws: a tunnel that cannot be opened is
   * logged and tried again at the next occasion. Answers whether none failed.
   */
  async reopenPermanent(deviceId: string): Promise<boolean> {
    let opened = true;
    try {
      for (const tunnel of await this.deps.repo.wantedPermanent(deviceId)) {
        if (!tunnel.online) return opened;
        await this.open(deviceId, tunnel.organizationId, tunnel).catch((err: Error) => {
          opened = false;
          this.deps.log.warn({ deviceId, tunnelId: tunnel.id, err: err.message }, 'a permanent tunnel could not be opened again');
        });
      }
    } catch (err) {
      this.deps.log.warn({ deviceId, err: (err as Error).message }, 'permanent tunnels not opened again');
      return false;
    }
    return opened;
  }

  /**
   * A proxy restarted: the PERMANENT tunnels it served are opened again, through it or another.
   * Spread out (issue 67): each device's turn comes at a random moment within 10 ms a device (at
   * most 15 s), 16 devices at a time, so a proxy that comes back under thousands of devices is not
   * dialled by all of them in one second; a device whose tunnel could not be opened (the proxy still
   * starting) is asked again after a random wait of up to 1 s, 2 s, 4 s.
   */
  async reopenAfterProxyRestart(proxyServerId: string): Promise<void> {
    const deviceIds = await this.deps.repo.devicesWantingPermanentAt(proxyServerId).catch(() => []);
    const spreadMs = Math.min(REOPEN_SPREAD_MAX_MS, deviceIds.length * REOPEN_SPREAD_PER_DEVICE_MS);
    const start = Date.now();
    const turns = deviceIds.map((deviceId) => ({ deviceId, at: start + Math.random() * spreadMs })).sort((x, y) => x.at - y.at);
    await inBatches(turns, REOPEN_AT_ONCE, async ({ deviceId, at }) => {
      await sleep(at - Date.now());
      for (let attempt = 0; !(await this.reopenPermanent(deviceId)) && attempt < REOPEN_RETRIES; attempt++) await sleep(Math.random() * 1000 * 2 ** attempt);
    });
  }

  /**
   * The device was moved to another proxy: the tunnels connected now, and the wanted PERMANENT ones,
   * are opened there (the agent leaves the old proxy with the first one). Never throws.
   */
  async followProxy(deviceId: string): Promise<void> {
    try {
      const [tunnels, wanted] = await Promise.all([this.deps.repo.list(deviceId), this.deps.repo.wantedPermanent(deviceId)]);
      const wantedIds = new Set(wanted.map((w) => w.id));
      for (const tunnel of tunnels.filter((t) => t.online && (t.state === 'CONNECTED' || wantedIds.has(t.id)))) {
        await this.open(deviceId, tunnel.organizationId, tunnel).catch((err: Error) =>
          this.deps.log.warn({ deviceId, tunnelId: tunnel.id, err: err.message }, 'a tunnel could not follow its device to another proxy'),
        );
      }
    } catch (err) {
      this.deps.log.warn({ deviceId, err: (err as Error).message }, 'tunnels did not follow their device to another proxy');
    }
  }

  private async open(deviceId: string, organizationId: string, tunnel: { id: string; port: number; host: string }): Promise<void> {
    const proxy = await this.deps.proxies.proxyOf(deviceId, organizationId);
    const asked = new Date();
    try {
      await callDevice(
        this.deps,
        deviceId,
        RequestName.OpenTunnel,
        { tunnelId: tunnel.id, port: tunnel.port, host: tunnel.host, proxy },
        { timeoutMs: CONNECT_TIMEOUT_MS, graceMs: 2000 },
        TEXTS,
      );
    } catch (err) {
      // SSH says only that a forward failed: the proxy told the console why, in words for the person.
      const why = err instanceof AppError && err.code === ErrorCode.DeviceRefused ? await this.deps.repo.refusalSince(deviceId, tunnel.id, asked) : undefined;
      throw why ? conflict(why) : err;
    }
  }

  toTunnel(t: TunnelRecord): Tunnel {
    return toTunnel({ ...t, hasPassword: t.securityPasswordHash !== null }, this.deps.domain);
  }

  private connected(t: TunnelRecord): boolean {
    return t.online && t.state === 'CONNECTED';
  }

  private async found(deviceId: string, id: string): Promise<TunnelRecord> {
    const row = await this.deps.repo.find(deviceId, id);
    if (!row) throw notFound(TEXTS.notFound);
    return row;
  }

  /** What is stored of a form: HTTP-only parts dropped for TCP, the path suggested, the password hashed. */
  private async values(deviceId: string, form: TunnelForm, current?: TunnelRecord): Promise<TunnelValues> {
    const http = form.type === 'HTTP';
    if (http && form.domainId && !(await this.deps.repo.activeDomains(deviceId)).some((d) => d.id === form.domainId)) {
      throw badRequest(TEXTS.domain, { domainId: TEXTS.domain });
    }
    const username = http ? form.securityUsername : null;
    let passwordHash: string | null = null;
    if (username && form.securityPassword) passwordHash = await hashTunnelPassword(form.securityPassword);
    else if (username) {
      // An edit that leaves the password empty keeps the one set (the API never shows it).
      passwordHash = current?.securityPasswordHash ?? null;
      if (!passwordHash) throw badRequest(TEXTS.passwordNeeded, { securityPassword: TEXTS.passwordNeeded });
    }
    return {
      name: form.name,
      type: form.type,
      port: form.port,
      mode: form.mode,
      domainId: http ? form.domainId : null,
      path: http ? (form.path ?? (await this.freePath(form.name))) : null,
      host: (http ? form.host : null) ?? TUNNEL_DEFAULT_HOST,
      securityIp: form.securityIp,
      securityUsername: username,
      securityPasswordHash: passwordHash,
    };
  }

  /** The path suggested from the name, with a few random characters when that one is taken. */
  private async freePath(name: string): Promise<string> {
    const base = suggestTunnelPath(name);
    if (!(await this.deps.repo.pathTaken(base))) return base;
    return `${base.slice(0, 57)}-${randomBytes(3).toString('hex')}`;
  }

  /** The unique indexes have the last word when two people pick one port or path at once. */
  private taken(form: TunnelForm, values: TunnelValues) {
    return (err: unknown): never => {
      if (!isUniqueViolation(err)) throw err;
      if (constraintOf(err) === 'tunnels_path_idx') {
        const message = TEXTS.pathTaken(values.path ?? '');
        throw new AppError(409, ErrorCode.Conflict, message, { path: message });
      }
      throw new AppError(409, ErrorCode.Conflict, TEXTS.portTaken(form.port), { port: TEXTS.portTaken(form.port) });
    };
  }
}

/** The name of the constraint a database error names, wrapped by drizzle or not. */
function constraintOf(err: unknown): string | undefined {
  for (let e = err as { constraint?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.constraint === 'string') return e.constraint;
  }
  return undefined;
}

/** What the audit trail keeps of a form: never the password. */
const describeForm = (form: TunnelForm) => ({
  name: form.name,
  type: form.type,
  port: form.port,
  mode: form.mode,
  path: form.path,
  host: form.host,
  securityIp: form.securityIp,
  securityUsername: form.securityUsername,
});
