import { conflict } from '../../lib/app-error.js';
import type { ServersRepository } from '../servers/servers.repository.js';

const NO_PROXY = 'No tunnel proxy is available: an administrator registers one under Servers (type PROXY, with its host key).';

/**
 * Which proxy a device's tunnels go through: the PROXY server it is assigned to, or (a device
 * enrolled before there was one) the least loaded accepting one, assigned now (SPEC §5).
 */
export class TunnelProxies {
  constructor(private readonly servers: ServersRepository) {}

  async proxyOf(deviceId: string, organizationId: string): Promise<{ url: string; hostKey: string }> {
    const assigned = (await this.servers.assignedTo(deviceId)).find((s) => s.type === 'PROXY');
    if (assigned) {
      if (!assigned.hostKey) throw conflict(NO_PROXY);
      return { url: assigned.url, hostKey: assigned.hostKey };
    }
    const [least] = (await this.servers.accepting('PROXY', organizationId)).filter((s) => s.hostKey);
    if (!least) throw conflict(NO_PROXY);
    await this.servers.assign(deviceId, least.id);
    return { url: least.url, hostKey: least.hostKey! };
  }
}
