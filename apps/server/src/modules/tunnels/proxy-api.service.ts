import { AuditKind, ErrorCode, type ProxyForward, type ProxyRevocations, type ProxyTunnelState } from '@fleetlink/contract';
import { allowListEntries } from '@fleetlink/contract';
import { basicCredentials } from '@fleetlink/contract/basic-credentials';
import { AppError, badRequest, notFound } from '../../lib/app-error.js';
import type { LiveChanges } from '../live/live-bus.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { HubLog } from '../broker/hub-connection.js';
import { safeEqual, type DeviceCredentials } from '../enrollment/credentials.js';
import type { ServersRepository } from '../servers/servers.repository.js';
import type { DeviceRevocationsRepository } from './device-revocations.repository.js';
import type { ProxyLiveness } from './proxy-liveness.js';
import { isTunnelMapping } from './tunnel-mapping.js';
import type { TunnelsRepository } from './tunnels.repository.js';

const unauthenticated = (message: string) => new AppError(401, ErrorCode.Unauthenticated, message);

export interface ProxyApiDeps {
  repo: TunnelsRepository;
  servers: ServersRepository;
  credentials: DeviceCredentials;
  revocations: DeviceRevocationsRepository;
  audit: AuditTrail;
  log: Pick<HubLog, 'warn'>;
  live?: LiveChanges;
  /** A proxy (re)started and its tunnels were marked disconnected: the PERMANENT ones go up again. */
  onRestart?(proxyServerId: string): void;
  /** Notes each call of a proxy: one silent too long is unreachable (issue 67). */
  liveness?: ProxyLiveness;
}

/**
 * What the console tells its tunnel proxies (contract `proxyRoutes`): who a device is, which of its
 * tunnels a forward is, and what the proxies report back. A device reaches only its own tunnels: a
 * forward is looked up by the device the proxy authenticated and the port it asked for.
 */
export class ProxyApiService {
  constructor(private readonly deps: ProxyApiDeps) {}

  /** The PROXY server whose id and password the Basic header holds. */
  async authenticate(header: string | undefined): Promise<string> {
    const { username: serverId, password } = basicCredentials(header) ?? { username: '', password: '' };
    const REFUSED = 'A tunnel proxy signs in with its PROXY server id and password.';
    if (!/^[0-9a-f-]{36}$/i.test(serverId)) throw unauthenticated(REFUSED);
    const server = await this.deps.servers.account(serverId);
    if (!server || server.type !== 'PROXY' || !server.password || !safeEqual(password, server.password)) throw unauthenticated(REFUSED);
    this.deps.liveness?.heard(serverId);
    return serverId;
  }

  async deviceLogin(username: string, password: string): Promise<{ deviceId: string; credential: string }> {
    const signedIn = await this.deps.credentials.signIn(username, password);
    if (!signedIn) throw unauthenticated('The device credentials are not valid.');
    return signedIn;
  }

  /**
   * Checked at every forward, never remembered: the connection's credentials must still be the
   * device's (no key reset since it signed in), and the device must still be on this proxy.
   */
  async forward(proxyServerId: string, deviceId: string, port: number, credential: string): Promise<ProxyForward> {
    const [current, assigned] = await Promise.all([this.deps.credentials.credentialOf(deviceId), this.deps.servers.assignments(deviceId)]);
    if (!current || !safeEqual(current, credential)) throw unauthenticated("The device's credentials changed since this connection signed in: it signs in again.");
    if (!assigned.some((s) => s.id === proxyServerId)) throw new AppError(403, ErrorCode.Forbidden, 'The device is assigned to another tunnel proxy.');
    const tunnel = await this.deps.repo.byPort(deviceId, port);
    if (!tunnel) {
      const reason = `Port ${port} is not a registered tunnel of this device.`;
      this.deps.log.warn({ deviceId, port, proxyServerId }, 'tunnel forward refused: not a tunnel of the device');
      await this.deps.audit.record({ username: null, subject: null }, { kind: AuditKind.TunnelRefused, deviceId, details: { port, proxyServerId } }, { error: reason });
      throw notFound(reason);
    }
    return {
      tunnelId: tunnel.id,
      type: tunnel.type,
      path: tunnel.type === 'HTTP' ? tunnel.path : null,
      customDomain: tunnel.type === 'HTTP' ? tunnel.customDomain : null,
      allow: allowListEntries(tunnel.securityIp),
      username: tunnel.securityPasswordHash ? tunnel.securityUsername : null,
      passwordHash: tunnel.securityPasswordHash,
    };
  }

  /**
   * A proxy reports a tunnel connected only for a device assigned to it, with the tunnel's own
   * address as its mapping; a disconnection counts only for a tunnel it serves (the repository's).
   */
  async state(proxyServerId: string, report: ProxyTunnelState): Promise<void> {
    if (report.state === 'CONNECTED') await this.checkConnected(proxyServerId, report);
    const refusal = report.state === 'DISCONNECTED' ? (report.refusal ?? null) : null;
    const recorded = await this.deps.repo.recordState(report.deviceId, report.tunnelId, report.state, report.mapping, proxyServerId, refusal);
    if (!recorded) throw notFound('Tunnel not found.');
    this.deps.live?.device(report.deviceId, 'tunnels');
  }

  private async checkConnected(proxyServerId: string, report: ProxyTunnelState): Promise<void> {
    const [assigned, tunnel] = await Promise.all([this.deps.servers.assignments(report.deviceId), this.deps.repo.find(report.deviceId, report.tunnelId)]);
    if (!assigned.some((s) => s.id === proxyServerId)) throw new AppError(403, ErrorCode.Forbidden, 'The device is assigned to another tunnel proxy.');
    if (!tunnel) throw notFound('Tunnel not found.');
    // The device is on this proxy, so the domain of its proxy is this proxy's.
    if (report.mapping !== null && !isTunnelMapping(report.mapping, tunnel, tunnel.proxyDomain)) {
      this.deps.log.warn({ deviceId: report.deviceId, tunnelId: report.tunnelId, proxyServerId }, "tunnel state refused: the mapping is not the tunnel's address");
      throw badRequest("The mapping is not the tunnel's address on this proxy's domain or its organization's custom domain.");
    }
  }

  async hello(proxyServerId: string, domain: string): Promise<void> {
    await this.deps.servers.update(proxyServerId, { tunnelDomain: domain.toLowerCase() });
    await this.deps.servers.heard(proxyServerId, true);
    for (const deviceId of await this.deps.repo.disconnectAllOf(proxyServerId)) this.deps.live?.device(deviceId, 'tunnels');
    this.deps.onRestart?.(proxyServerId);
  }

  /**
   * The devices whose connections at this proxy must end since the cursor: deleted or re-keyed ones,
   * and those moved off this proxy. Null starts a proxy at the latest revocation.
   */
  revocations(proxyServerId: string, after: string | null): Promise<ProxyRevocations> {
    return this.deps.revocations.forServer(proxyServerId, after);
  }

  /** Whether a path on a custom domain, or on a proxy's own (null), is a registered tunnel. */
  hostKnown(path: string, customDomain: string | null): Promise<boolean> {
    return this.deps.repo.hostExists(path.toLowerCase(), customDomain?.toLowerCase() ?? null);
  }
}
