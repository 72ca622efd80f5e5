import type { HubLog } from '../broker/hub-connection.js';
import type { DeviceMessage, DeviceTrafficHandler, MessageHub } from '../broker/message-hub.js';
import type { DevicesRepository } from '../devices/devices.repository.js';
import type { ServersRepository } from '../servers/servers.repository.js';
import type { TelemetryRepository } from './telemetry.repository.js';

export interface TelemetryOptions {
  repo: TelemetryRepository;
  devices: DevicesRepository;
  servers: ServersRepository;
  hub: MessageHub;
  log: HubLog;
  heartbeatSeconds: number;
  pingSeconds: number;
  /** Called when a device comes online on a server it is not assigned to (it missed a migration). */
  onMisplaced?(deviceId: string, serverId: string): Promise<void>;
}

const KEEP_MS = 9 * 24 * 3600_000;

/**
 * What device traffic means for the console: online state and periods, last response, properties,
 * load samples, and latency measured by a ping round trip when a device comes online and then
 * every `pingSeconds` while it keeps sending heartbeats.
 */
export class TelemetryService implements DeviceTrafficHandler {
  private readonly lastPing = new Map<string, number>();
  private timers: NodeJS.Timeout[] = [];

  constructor(private readonly o: TelemetryOptions) {}

  start() {
    const sweepMs = this.o.heartbeatSeconds * 1000;
    this.timers.push(setInterval(() => void this.sweep().catch(() => {}), sweepMs).unref());
    this.timers.push(setInterval(() => void this.o.repo.pruneMetrics(new Date(Date.now() - KEEP_MS)).catch(() => {}), 3600_000).unref());
  }

  stop() {
    this.timers.forEach(clearInterval);
    this.timers = [];
  }

  /** Devices silent for three heartbeats (their last will may have been lost with a broker) go offline. */
  async sweep(now = new Date()): Promise<string[]> {
    const cutoff = new Date(now.getTime() - (this.o.heartbeatSeconds * 3 + 5) * 1000);
    return this.o.repo.expireSilent(cutoff, now);
  }

  async handle(serverId: string, deviceId: string, message: DeviceMessage): Promise<void> {
    const now = new Date();
    const { repo } = this.o;
    switch (message.kind) {
      case 'state':
        if (message.payload.online) {
          const changed = await repo.setOnline(deviceId, true, now);
          if (changed) this.o.log.info({ deviceId, serverId }, 'device online');
          this.maybePing(deviceId, serverId, changed);
          await this.checkPlacement(deviceId, serverId);
        } else if (await this.isAssignedTo(deviceId, serverId)) {
          // An old server's last will after a migration must not mark the device offline.
          if (await repo.setOnline(deviceId, false, now)) this.o.log.info({ deviceId, serverId }, 'device offline');
          this.lastPing.delete(deviceId);
        }
        return;
      case 'heartbeat':
        await repo.setOnline(deviceId, true, now);
        this.maybePing(deviceId, serverId, false);
        return;
      case 'properties':
        if (!(await repo.exists(deviceId))) return;
        await this.o.devices.updateReported(deviceId, {
          properties: message.payload.properties,
          addresses: message.payload.addresses,
          drives: message.payload.drives,
        });
        await repo.setOnline(deviceId, true, now);
        return;
      case 'metrics':
        if (!(await repo.exists(deviceId))) return;
        await repo.addMetric(deviceId, new Date(message.payload.time), message.payload.systemLoad);
        await repo.touch(deviceId, now);
        return;
    }
  }

  private async isAssignedTo(deviceId: string, serverId: string): Promise<boolean> {
    const assigned = (await this.o.servers.assignedTo(deviceId)).find((s) => s.type === 'MESSAGE');
    return !assigned || assigned.id === serverId;
  }

  private async checkPlacement(deviceId: string, serverId: string) {
    if (!this.o.onMisplaced || (await this.isAssignedTo(deviceId, serverId))) return;
    await this.o.onMisplaced(deviceId, serverId).catch((err: Error) =>
      this.o.log.warn({ deviceId, serverId, err: err.message }, 'could not redirect a device to its assigned server'),
    );
  }

  private maybePing(deviceId: string, serverId: string, force: boolean) {
    const last = this.lastPing.get(deviceId) ?? 0;
    if (!force && Date.now() - last < this.o.pingSeconds * 1000) return;
    this.lastPing.set(deviceId, Date.now());
    const via = this.o.hub.connection(serverId);
    this.o.hub
      .ping(deviceId, via)
      .then((ms) => this.o.repo.setLatency(deviceId, ms))
      .catch((err: Error) => this.o.log.debug({ deviceId, err: err.message }, 'ping failed'));
  }
}
