import type { HubLog } from '../broker/hub-connection.js';
import type { LiveChanges } from '../live/live-bus.js';
import type { ServersRepository } from '../servers/servers.repository.js';
import type { TunnelsRepository } from './tunnels.repository.js';

/**
 * How long a proxy may go without calling the console before it counts as unreachable (issue 67).
 * A running proxy reads revocations every second, so 30 s of silence is a dead process, a dead
 * host, or a network between them that is down: either way its tunnels are not known to be served.
 */
export const PROXY_SILENCE_MS = 30_000;
/** Whether a proxy last heard at `heardAt` counts as calling now: the one rule for its card and its metric. */
export const proxyCalling = (heardAt: Date | null, now = Date.now()): boolean => !!heardAt && now - heardAt.getTime() <= PROXY_SILENCE_MS;

/** Each console writes down a proxy's calls at most this often: one a second would be a write a second. */
const NOTE_EVERY_MS = 5_000;

/**
 * Which tunnel proxies are alive, from their own calls (a proxy that dies says no goodbye): each
 * call is noted as the server's `heard_at`, in the database, so every console sees the same; a
 * sweep marks the tunnels of a proxy silent for PROXY_SILENCE_MS disconnected, and the server list
 * shows it unreachable (ServersService). When the proxy comes back, its hello reopens the PERMANENT
 * tunnels it served (ProxyApiService.hello).
 */
export class ProxyLiveness {
  private readonly noted = new Map<string, number>();

  constructor(
    private readonly o: {
      servers: ServersRepository;
      tunnels: TunnelsRepository;
      log: Pick<HubLog, 'warn'>;
      live?: LiveChanges;
      silenceMs?: number;
    },
  ) {}

  /** A proxy called: written down unless this console did so a moment ago. */
  heard(serverId: string): void {
    const now = Date.now();
    if (now - (this.noted.get(serverId) ?? 0) < NOTE_EVERY_MS) return;
    this.noted.set(serverId, now);
    this.o.servers.heard(serverId).catch((err: Error) => {
      this.noted.delete(serverId);
      this.o.log.warn({ err, serverId }, 'could not note a tunnel proxy as alive');
    });
  }

  /**
   * One round of the sweep (a periodic task, one console at a time): the tunnels still shown
   * connected at a silent proxy are disconnected, and their pages told.
   */
  async sweep(): Promise<void> {
    for (const serverId of await this.o.tunnels.silentProxiesServing(this.o.silenceMs ?? PROXY_SILENCE_MS)) {
      const deviceIds = await this.o.tunnels.disconnectAllOf(serverId);
      if (!deviceIds.length) continue;
      this.o.log.warn({ serverId, devices: deviceIds.length }, 'a tunnel proxy has not called for too long: its tunnels are shown disconnected');
      for (const deviceId of deviceIds) this.o.live?.device(deviceId, 'tunnels');
    }
  }
}
