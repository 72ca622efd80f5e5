import type { ConsoleLocks } from '../../db/console-locks.js';
import { PeriodicTask } from '../../lib/periodic-task.js';
import type { HubLog } from '../broker/hub-connection.js';
import type { DeviceMessage, DeviceTrafficHandler, MessageHub } from '../broker/message-hub.js';
import type { DevicesRepository } from '../devices/devices.repository.js';
import type { ServersRepository } from '../servers/servers.repository.js';
import type { MonitorsRepository } from '../monitors/monitors.repository.js';
import { stateOrder } from '@fleetlink/contract';
import type { LiveChanges } from '../live/live-bus.js';
import { DEVICE_CLOCK_SKEW_MINUTES, type TelemetryRepository } from './telemetry.repository.js';

export interface TelemetryOptions {
  repo: TelemetryRepository;
  devices: DevicesRepository;
  servers: ServersRepository;
  hub: MessageHub;
  /** The silence sweep and the pruning of old samples run on one console at a time. */
  locks: ConsoleLocks;
  log: HubLog;
  heartbeatSeconds: number;
  pingSeconds: number;
  /** Called when a device comes online on a server it is not assigned to (it missed a migration). */
  onMisplaced?(deviceId: string, serverId: string): Promise<void>;
  /** Called each time a device says it is online (each connect of its agent), without waiting. */
  onOnline?(deviceId: string): void;
  /** Where the monitors' readings that come with properties go. */
  monitorReadings?: Pick<MonitorsRepository, 'recordReadings'>;
  /** Told what changed, for the pages' live updates. */
  live?: LiveChanges;
  /** How long heartbeats and load samples wait to be written together (default 1000 ms). */
  flushMs?: number;
}

/** Past this many waiting heartbeats or samples, they are written at once. */
const BATCH_MAX = 1000;

const KEEP_MS = 9 * 24 * 3600_000;
/** How far ahead of the console's clock a load sample may be dated (the repository allows as much behind). */
const METRIC_CLOCK_SKEW_MS = DEVICE_CLOCK_SKEW_MINUTES * 60_000;

/**
 * What device traffic means for the console: online state and periods, last response, properties,
 * load samples, and latency measured by a ping round trip when a device comes online and then
 * every `pingSeconds` while it keeps sending heartbeats.
 */
export class TelemetryService implements DeviceTrafficHandler {
  private readonly lastPing = new Map<string, number>();
  private tasks: PeriodicTask[] = [];
  // Heartbeats and samples are most of a fleet's traffic: written together, one statement each
  // per flush instead of one (or a transaction) per message.
  private beats = new Map<string, Date>();
  private samples: { deviceId: string; time: Date; systemLoad: number; heardAt: Date }[] = [];
  private flushing?: Promise<void>;
  private flushTimer?: NodeJS.Timeout;

  constructor(private readonly o: TelemetryOptions) {}

  start() {
    const { locks, log } = this.o;
    this.tasks = [
      new PeriodicTask({ name: 'silent devices sweep', everyMs: this.o.heartbeatSeconds * 1000, locks, log, work: () => this.sweep().then(() => undefined) }),
      new PeriodicTask({ name: 'load samples pruning', everyMs: 3600_000, locks, log, work: () => this.o.repo.pruneMetrics(new Date(Date.now() - KEEP_MS)) }),
    ].map((t) => t.start());
  }

  async stop() {
    await Promise.all(this.tasks.map((t) => t.stop()));
    this.tasks = [];
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    await this.flush().catch(() => {});
  }

  private scheduleFlush() {
    if (this.beats.size + this.samples.length >= BATCH_MAX) {
      void this.flush();
      return;
    }
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, this.o.flushMs ?? 1000);
  }

  /** Writes what is waiting; one flush at a time, so the order of a device's writes holds. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (!this.beats.size && !this.samples.length) return;
    const beats = this.beats;
    const samples = this.samples;
    this.beats = new Map();
    this.samples = [];
    this.flushing = (async () => {
      try {
        const { repo } = this.o;
        const notOnline = await repo.touchOnline(beats).catch((err: Error) => {
          this.o.log.warn({ err: err.message, heartbeats: beats.size }, 'heartbeats could not be written');
          return [];
        });
        // A heartbeat from a device the console thought offline (swept, or its will arrived late).
        for (const id of notOnline) {
          await repo
            .setOnlineByHeartbeat(id, beats.get(id)!)
            .then((changed) => {
              if (!changed) return;
              this.stateChanged(id, true);
              // Its online state went to no console (none was subscribed, or it was dropped as
              // stale): what a console does for a device that comes online is done now.
              this.o.onOnline?.(id);
            })
            .catch((err: Error) => this.o.log.warn({ deviceId: id, err: err.message }, 'online state could not be written'));
        }
        const early = await repo.addMetrics(samples).catch((err: Error) => {
          this.o.log.warn({ err: err.message, samples: samples.length }, 'load samples could not be written');
          return [];
        });
        for (const { deviceId, time } of early) {
          this.o.log.warn({ deviceId, time: time.toISOString() }, 'load sample dropped: dated before the device was registered');
        }
        for (const deviceId of new Set(samples.map((m) => m.deviceId))) this.o.live?.device(deviceId, 'metrics');
      } finally {
        this.flushing = undefined;
      }
    })();
    await this.flushing;
  }

  /** Devices silent for three heartbeats (their last will may have been lost with a broker) go offline. */
  async sweep(now = new Date()): Promise<string[]> {
    const cutoff = new Date(now.getTime() - (this.o.heartbeatSeconds * 3 + 5) * 1000);
    const expired = await this.o.repo.expireSilent(cutoff, now);
    for (const id of expired) this.o.live?.device(id, 'state', { online: false });
    return expired;
  }

  async handle(serverId: string, deviceId: string, message: DeviceMessage): Promise<void> {
    const now = new Date();
    const { repo } = this.o;
    switch (message.kind) {
      case 'state': {
        const order = stateOrder(message.payload);
        if (message.payload.online) {
          const changed = await repo.applyState(deviceId, true, now, order);
          if (changed === 'stale') return this.o.log.debug({ deviceId, serverId }, 'state dropped: a newer one was applied');
          if (changed) this.stateChanged(deviceId, true, serverId);
          this.maybePing(deviceId, serverId, changed);
          await this.checkPlacement(deviceId, serverId);
          this.o.onOnline?.(deviceId);
        } else if (await this.isAssignedTo(deviceId, serverId)) {
          // A heartbeat still waiting to be written must not bring it back.
          this.beats.delete(deviceId);
          // An old server's last will after a migration must not mark the device offline.
          const changed = await repo.applyState(deviceId, false, now, order);
          if (changed === 'stale') return this.o.log.debug({ deviceId, serverId }, 'state dropped: a newer one was applied');
          if (changed) this.stateChanged(deviceId, false, serverId);
          this.lastPing.delete(deviceId);
        }
        return;
      }
      case 'heartbeat':
        this.beats.set(deviceId, now);
        this.scheduleFlush();
        this.maybePing(deviceId, serverId, false);
        return;
      case 'properties':
        // (A device deleted meanwhile: the update touches no row.)
        await this.o.devices.updateReported(deviceId, {
          properties: message.payload.properties,
          addresses: message.payload.addresses,
          drives: message.payload.drives,
        });
        if (message.payload.monitors) await this.o.monitorReadings?.recordReadings(deviceId, message.payload.monitors, now);
        this.o.live?.device(deviceId, 'reported');
        // Proof of life like a heartbeat, written with them.
        this.beats.set(deviceId, now);
        this.scheduleFlush();
        return;
      case 'metrics': {
        const time = new Date(message.payload.time);
        // A device's clock may run a little ahead; a sample from further on would sit on the chart for good.
        if (time.getTime() > now.getTime() + METRIC_CLOCK_SKEW_MS) {
          this.o.log.warn({ deviceId, serverId, time: message.payload.time }, 'load sample dropped: dated in the future');
          return;
        }
        this.samples.push({ deviceId, time, systemLoad: message.payload.systemLoad, heardAt: now });
        this.scheduleFlush();
        return;
      }
    }
  }

  /** A device's online state changed at this console: logged, and told to the pages. */
  private stateChanged(deviceId: string, online: boolean, serverId?: string) {
    this.o.log.info({ deviceId, ...(serverId ? { serverId } : {}) }, online ? 'device online' : 'device offline');
    this.o.live?.device(deviceId, 'state', { online });
  }

  private async isAssignedTo(deviceId: string, serverId: string): Promise<boolean> {
    const assigned = (await this.o.servers.assignments(deviceId)).find((s) => s.type === 'MESSAGE');
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
    // Consoles sharing the device's heartbeats each find a ping due: the database says which one sends it
    // (a ping forced by a new connection is always sent, and counts as the last).
    this.o.repo
      .claimPing(deviceId, force ? 0 : this.o.pingSeconds)
      .then(async (mine) => {
        if (!mine) return;
        await this.o.repo.setLatency(deviceId, await this.o.hub.ping(deviceId, via));
        this.o.live?.device(deviceId, 'state');
      })
      .catch((err: Error) => this.o.log.debug({ deviceId, err: err.message }, 'ping failed'));
  }
}
